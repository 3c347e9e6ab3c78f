package io.idem.core.engine;

import io.idem.core.moderation.ModerationPolicy;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.CallbackAddress;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.JobQueueStore;
import io.idem.core.spi.Lease;
import io.idem.core.time.Ticker;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims queued jobs and runs each on its own virtual thread, at most {@code concurrency} at once.
 * Wakes on {@link #wake()} (same-process submissions, LISTEN/NOTIFY) with a slow poll as safety net;
 * heartbeats its leases; on {@link #close()} stops claiming, lets in-flight calls finish within the
 * grace period, and leaves the rest to lease expiry. Thread-safe.
 */
public final class JobWorker implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(JobWorker.class);

    private final JobQueueStore store;
    private final WorkerSettings settings;
    private final InstantSource clock;
    private final Ticker ticks;
    private final JobRun run;
    private final Semaphore slots;
    private final Map<Lease, Boolean> inFlight = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wakeUp = lock.newCondition();
    private final ExecutorService jobs = Executors.newVirtualThreadPerTaskExecutor();
    /** How long free slots may wait for company before a smaller claim goes out anyway. */
    private static final java.time.Duration BATCH_WINDOW = java.time.Duration.ofMillis(20);

    private volatile boolean running;
    private long lastClaimNanos;
    private boolean queueMayHoldMore = true;
    private boolean woken;
    private Thread claimer;
    private Thread heartbeat;

    public JobWorker(
            JobQueueStore store,
            ProviderRegistry providers,
            AssetStore assets,
            InstantSource clock,
            WorkerSettings settings,
            CallbackAddress callbacks,
            ProviderGate gate) {
        this(store, providers, assets, clock, Ticker.system(), settings, callbacks, gate);
    }

    /** A worker whose latencies and batch window are measured by {@code ticks} (a manual clock in tests). */
    public JobWorker(
            JobQueueStore store,
            ProviderRegistry providers,
            AssetStore assets,
            InstantSource clock,
            Ticker ticks,
            WorkerSettings settings,
            CallbackAddress callbacks,
            ProviderGate gate) {
        this(
                store,
                providers,
                assets,
                clock,
                ticks,
                settings,
                callbacks,
                gate,
                DeferralSettings.DEFAULTS,
                ModerationPolicy.NONE);
    }

    /**
     * A worker whose jobs wait out closed providers as {@code deferral} says, and whose results on
     * moderated lanes pass {@code moderation} before they are delivered.
     */
    public JobWorker(
            JobQueueStore store,
            ProviderRegistry providers,
            AssetStore assets,
            InstantSource clock,
            Ticker ticks,
            WorkerSettings settings,
            CallbackAddress callbacks,
            ProviderGate gate,
            DeferralSettings deferral,
            ModerationPolicy moderation) {
        this.store = store;
        this.settings = settings;
        this.clock = clock;
        this.ticks = ticks;
        this.run = new JobRun(
                store,
                providers,
                assets,
                clock,
                ticks,
                "worker:" + settings.workerId(),
                () -> !running,
                callbacks,
                gate,
                deferral,
                moderation);
        this.slots = new Semaphore(settings.concurrency());
    }

    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        claimer = Thread.ofPlatform()
                .name("idem-claimer-" + settings.workerId())
                .daemon()
                .start(this::claimLoop);
        heartbeat =
                Thread.ofVirtual().name("idem-heartbeat-" + settings.workerId()).start(this::heartbeatLoop);
    }

    /** Asks the worker to look for new jobs now. Cheap; coalesces. */
    public void wake() {
        lock.lock();
        try {
            woken = true;
            wakeUp.signal();
        } finally {
            lock.unlock();
        }
    }

    public int inFlight() {
        return inFlight.size();
    }

    private void claimLoop() {
        while (running) {
            try {
                int free = slots.availablePermits();
                int claimedCount = 0;
                // Claim in batches: one statement for half a batch of free slots, not one per finished job.
                int worthClaiming = Math.max(1, Math.min(settings.claimBatch(), settings.concurrency()) / 2);
                boolean due = ticks.read() - lastClaimNanos > BATCH_WINDOW.toNanos();
                if (free >= worthClaiming || (free > 0 && (inFlight.isEmpty() || due))) {
                    lastClaimNanos = ticks.read();
                    List<ClaimedJob> claimed = store.claim(
                            settings.workerId(),
                            Math.min(free, settings.claimBatch()),
                            clock.instant(),
                            settings.lease());
                    claimedCount = claimed.size();
                    queueMayHoldMore = claimedCount == Math.min(free, settings.claimBatch());
                    for (ClaimedJob job : claimed) {
                        slots.acquireUninterruptibly();
                        inFlight.put(job.lease(), Boolean.TRUE);
                        jobs.execute(() -> runOne(job));
                    }
                }
                if (claimedCount == 0 || slots.availablePermits() == 0) {
                    // With free slots, look again after the batch window even if nothing wakes us.
                    boolean soon = queueMayHoldMore && slots.availablePermits() > 0 && !inFlight.isEmpty();
                    awaitWake(soon ? BATCH_WINDOW : settings.pollEvery());
                }
            } catch (RuntimeException e) {
                log.error("claiming jobs failed; retrying after the poll interval", e);
                awaitWake(settings.pollEvery());
            }
        }
    }

    private void runOne(ClaimedJob job) {
        try {
            run.run(job);
        } catch (RuntimeException e) {
            // The lease will expire and the sweeper decides: nothing is lost, nothing is retried blindly.
            log.error(
                    "job {} stopped unexpectedly; its lease will expire",
                    job.job().id(),
                    e);
        } finally {
            inFlight.remove(job.lease());
            slots.release();
            wake();
        }
    }

    private void awaitWake(java.time.Duration atMost) {
        lock.lock();
        try {
            if (!woken && running) {
                wakeUp.await(atMost.toMillis(), TimeUnit.MILLISECONDS);
            }
            woken = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        } finally {
            lock.unlock();
        }
    }

    private void heartbeatLoop() {
        while (running) {
            try {
                Thread.sleep(settings.heartbeatEvery());
                if (!inFlight.isEmpty()) {
                    store.extendLeases(
                            List.copyOf(inFlight.keySet()), clock.instant().plus(settings.lease()));
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.error("lease heartbeat failed; retrying", e);
            }
        }
    }

    /** Stops claiming, waits up to the grace period for in-flight jobs, then stops heartbeating. */
    @Override
    public void close() {
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
        }
        wake();
        try {
            if (claimer != null) {
                claimer.join(settings.shutdownGrace().toMillis());
            }
            jobs.shutdown();
            if (!jobs.awaitTermination(settings.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn(
                        "{} jobs still in flight at shutdown; their leases will expire and the sweeper takes over",
                        inFlight.size());
                jobs.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (heartbeat != null) {
                heartbeat.interrupt();
            }
        }
    }
}
