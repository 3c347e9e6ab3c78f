package io.idem.server;

import io.idem.postgres.PgJobIntake;
import java.time.Duration;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Scheduled housekeeping: purges idempotency keys past their retention. */
final class Maintenance {
    private static final Logger log = LoggerFactory.getLogger(Maintenance.class);
    private static final Duration EVERY = Duration.ofMinutes(10);

    private Maintenance() {}

    static AutoCloseable start(PgJobIntake intake, InstantSource clock) {
        Thread thread = Thread.ofVirtual().name("idem-maintenance").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    int purged;
                    do {
                        purged = intake.purgeExpiredKeys(clock.instant(), 1000);
                        if (purged > 0) {
                            log.info("purged {} expired idempotency keys", purged);
                        }
                    } while (purged == 1000);
                    Thread.sleep(EVERY);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    log.warn("idempotency key purge failed; retrying later", e);
                    try {
                        Thread.sleep(EVERY);
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        });
        return thread::interrupt;
    }
}
