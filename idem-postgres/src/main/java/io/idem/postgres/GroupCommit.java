package io.idem.postgres;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit (DESIGN §2): callers hand records to a queue and go on; one writer thread commits
 * whatever has gathered, up to {@link Settings#maxBatch} records, in one call of the {@link
 * BatchWrite}, waiting at most {@link Settings#linger} for more. Under load a batch fills while the
 * previous one commits, so commits stay few; at rest a record waits a couple of milliseconds.
 *
 * <p>Nothing accepted is dropped: a full queue blocks the caller (back-pressure), a failed commit is
 * retried with backoff, and {@link #close()} drains the queue before it returns. Records in the
 * queue die only with the process (or when the store still refuses them at shutdown, which is
 * logged as an error with their count). Thread-safe.
 *
 * @param <T> the record type
 */
public final class GroupCommit<T> implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GroupCommit.class);
    private static final int SHUTDOWN_TRIES = 5;

    /**
     * Commits one batch atomically (one transaction): all of it lands, or it throws and none does
     * (then the same batch is written again). The list is reused once this returns: do not keep it.
     */
    @FunctionalInterface
    public interface BatchWrite<T> {
        void write(List<T> batch);
    }

    /**
     * @param maxBatch the most records per commit
     * @param linger how long a batch waits for more records after its first
     * @param capacity the most records queued before callers block
     * @param closeWait how long {@link #close()} waits for the queue to drain
     */
    public record Settings(int maxBatch, Duration linger, int capacity, Duration closeWait) {
        /** The chat audit's: 1,000 per commit, 2 ms linger, 50,000 queued, 30 s to drain. */
        public static final Settings DEFAULTS =
                new Settings(1000, Duration.ofMillis(2), 50_000, Duration.ofSeconds(30));

        public Settings {
            if (maxBatch < 1 || capacity < maxBatch) {
                throw new IllegalArgumentException(
                        "need 1 <= maxBatch <= capacity, was maxBatch " + maxBatch + ", capacity " + capacity);
            }
            if (linger.isNegative() || closeWait.isNegative()) {
                throw new IllegalArgumentException(
                        "linger and closeWait must not be negative: " + linger + ", " + closeWait);
            }
        }
    }

    private final String name;
    private final Settings settings;
    private final BatchWrite<T> store;
    private final BlockingQueue<T> queue;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final Thread writer;
    private volatile boolean closing;

    /** Starts the writer thread, named {@code idem-} and {@code name} ("chat audit": idem-chat-audit). */
    public GroupCommit(String name, Settings settings, BatchWrite<T> store) {
        this.name = name;
        this.settings = settings;
        this.store = store;
        this.queue = new ArrayBlockingQueue<>(settings.capacity());
        this.writer = Thread.ofPlatform()
                .daemon()
                .name("idem-" + name.replace(' ', '-'))
                .start(this::run);
    }

    /**
     * Takes a record for the next batch; blocks while the queue is full. After {@link #close()} the
     * record is written at once, on the caller's thread (a stream that outlived the HTTP server).
     */
    public void add(T record) {
        accepted.incrementAndGet();
        if (!writer.isAlive()) {
            write(List.of(record));
            return;
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    queue.put(record);
                    return;
                } catch (InterruptedException e) {
                    interrupted = true; // the record must still land; keep the interrupt for the caller
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits until every record taken so far is committed, or {@code max} passes; true if it is. */
    public boolean awaitWritten(Duration max) throws InterruptedException {
        long target = accepted.get();
        long until = System.nanoTime() + max.toNanos();
        while (written.get() < target) {
            if (System.nanoTime() > until) {
                return false;
            }
            Thread.sleep(2);
        }
        return true;
    }

    private void run() {
        List<T> batch = new ArrayList<>(settings.maxBatch());
        while (!closing || !queue.isEmpty()) {
            try {
                gather(batch);
            } catch (InterruptedException e) {
                closing = true;
            }
            if (!batch.isEmpty()) {
                write(batch);
                batch.clear();
            }
        }
    }

    /**
     * Fills {@code batch}: the first record, then whatever comes within the linger, up to the
     * maximum. The writer sleeps through the linger rather than waiting on the queue, so records
     * that arrive meanwhile do not wake it one by one: under load it wakes once per batch.
     */
    private void gather(List<T> batch) throws InterruptedException {
        T first = queue.poll(100, TimeUnit.MILLISECONDS);
        if (first == null) {
            return;
        }
        batch.add(first);
        int max = settings.maxBatch();
        long until = System.nanoTime() + settings.linger().toNanos();
        while (true) {
            queue.drainTo(batch, max - batch.size());
            long left = until - System.nanoTime();
            if (batch.size() >= max || left <= 0) {
                return;
            }
            LockSupport.parkNanos(this, left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    /** Commits one batch, retrying with backoff until it lands (or, closing, a few more times). */
    private void write(List<T> batch) {
        long backoff = 50;
        for (int tries = 1; ; tries++) {
            try {
                store.write(batch);
                written.addAndGet(batch.size());
                return;
            } catch (RuntimeException e) {
                if (closing && tries >= SHUTDOWN_TRIES) {
                    log.error("lost {} {} records at shutdown: the database did not take them", batch.size(), name, e);
                    written.addAndGet(batch.size());
                    return;
                }
                log.warn("{} commit failed (try {}); retrying in {} ms", name, tries, backoff, e);
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    closing = true;
                }
                backoff = Math.min(backoff * 2, 5_000);
            }
        }
    }

    /** Stops taking new batches after draining everything queued; returns when it is committed. */
    @Override
    public void close() {
        closing = true;
        try {
            writer.join(settings.closeWait().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer.isAlive()) {
            log.error(
                    "the {} writer did not finish within {}; {} records may be lost",
                    name,
                    settings.closeWait(),
                    queue.size());
        }
    }
}
