package io.idem.core.engine;

import io.idem.core.spi.JobQueueStore;
import java.time.Duration;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Periodically hands expired leases to the store: jobs whose worker died mid-call park in
 * manual_review ({@code worker_lost}); jobs that never called go back to the queue. Safe to run on
 * every node at once (the store's statement skips locked rows).
 */
public final class LeaseSweeper implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LeaseSweeper.class);
    private static final int BATCH = 500;

    private final JobQueueStore store;
    private final InstantSource clock;
    private final Duration every;
    private final Runnable afterRequeue;
    private volatile Periodic loop;

    public LeaseSweeper(JobQueueStore store, InstantSource clock, Duration every, Runnable afterRequeue) {
        this.store = store;
        this.clock = clock;
        this.every = every;
        this.afterRequeue = afterRequeue;
    }

    /** One sweep; returns how many jobs it handled. */
    public int sweepOnce() {
        int total = 0;
        int handled;
        do {
            handled = store.sweepExpiredLeases(clock.instant(), BATCH);
            total += handled;
        } while (handled == BATCH);
        if (total > 0) {
            log.info("swept {} jobs with expired leases", total);
            afterRequeue.run();
        }
        return total;
    }

    public void start() {
        loop = Periodic.start("lease sweep", every, every, this::sweepOnce);
    }

    @Override
    public void close() {
        Periodic running = loop;
        if (running != null) {
            running.close();
        }
    }
}
