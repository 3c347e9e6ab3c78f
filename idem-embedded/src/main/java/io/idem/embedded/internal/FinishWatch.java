package io.idem.embedded.internal;

import io.idem.embedded.Job;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells callers when their jobs finish. A job ends on whichever node ran it, by reconcile or by an
 * operator, and no notification carries job ends, so one virtual thread reads every watched job
 * again each {@link #POLL} (a bounded poll: one read per watched job per round, and nothing while
 * no job is watched). Each callback runs once, on its own virtual thread. Thread-safe.
 */
final class FinishWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FinishWatch.class);
    static final Duration POLL = Duration.ofMillis(100);

    private final Function<UUID, Optional<Job>> read;
    private final Map<UUID, List<Consumer<Job>>> watched = new ConcurrentHashMap<>();
    private final Thread loop;
    private volatile boolean running = true;

    FinishWatch(Function<UUID, Optional<Job>> read) {
        this.read = read;
        this.loop = Thread.ofVirtual().name("idem-finish-watch").start(this::run);
    }

    /** Calls {@code callback} once when job {@code id} is seen finished. */
    void watch(UUID id, Consumer<Job> callback) {
        watched.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(callback);
        java.util.concurrent.locks.LockSupport.unpark(loop);
    }

    /** Forgets {@code callback} if it has not run. */
    void forget(UUID id, Consumer<Job> callback) {
        watched.computeIfPresent(id, (k, callbacks) -> {
            callbacks.remove(callback);
            return callbacks.isEmpty() ? null : callbacks;
        });
    }

    private void run() {
        while (running) {
            if (watched.isEmpty()) {
                java.util.concurrent.locks.LockSupport.park(this);
                continue;
            }
            for (UUID id : List.copyOf(watched.keySet())) {
                check(id);
            }
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void check(UUID id) {
        Optional<Job> job;
        try {
            job = read.apply(id);
        } catch (RuntimeException e) {
            log.warn("could not read job {}; trying again", id, e);
            return;
        }
        if (job.isPresent() && job.get().state().isFinished()) {
            List<Consumer<Job>> callbacks = watched.remove(id);
            if (callbacks != null) {
                callbacks.forEach(callback -> Thread.ofVirtual().start(() -> tell(callback, job.get())));
            }
        }
    }

    private static void tell(Consumer<Job> callback, Job job) {
        try {
            callback.accept(job);
        } catch (RuntimeException e) {
            log.warn("a callback for job {} failed", job.id(), e);
        }
    }

    @Override
    public void close() {
        running = false;
        watched.clear();
        loop.interrupt();
    }
}
