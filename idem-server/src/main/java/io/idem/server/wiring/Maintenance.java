package io.idem.server.wiring;

import io.idem.core.engine.Periodic;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Scheduled housekeeping: purges of rows past their retention (job and chat idempotency keys). */
public final class Maintenance {
    private static final Logger log = LoggerFactory.getLogger(Maintenance.class);
    private static final int BATCH = 1000;

    /** Deletes up to {@code limit} expired rows; returns how many. */
    @FunctionalInterface
    public interface Purge {
        int purge(Instant now, int limit);
    }

    private Maintenance() {}

    /** Purges {@code what} now and then every {@code every}, in batches until nothing expired is left. */
    public static AutoCloseable purgeEvery(String what, Duration every, Purge purge, InstantSource clock) {
        return Periodic.start("purge of " + what, Duration.ZERO, every, () -> {
            int total = 0;
            int purged;
            do {
                purged = purge.purge(clock.instant(), BATCH);
                total += purged;
            } while (purged == BATCH);
            if (total > 0) {
                log.info("purged {} expired {}", total, what);
            }
        });
    }
}
