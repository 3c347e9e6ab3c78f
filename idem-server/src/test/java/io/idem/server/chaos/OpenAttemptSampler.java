package io.idem.server.chaos;

import io.idem.postgres.Database;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples, while the chaos runs, how many jobs have more than one open attempt (promise 2: never a
 * second potentially billable call while one is unknown). Each sample is one statement, so one
 * snapshot. Also keeps the most attempts seen in flight at once, to show the samples saw work.
 */
final class OpenAttemptSampler implements AutoCloseable {
    private static final String SAMPLE = """
            SELECT (SELECT count(*) FROM (SELECT job_id FROM provider_attempts
                                           WHERE status IN ('sending', 'submitted', 'unconfirmed')
                                           GROUP BY job_id HAVING count(*) > 1) doubled),
                   (SELECT count(*) FROM provider_attempts WHERE status IN ('sending', 'submitted'))
            """;

    private final Database db;
    private final Duration every;
    private final AtomicLong samples = new AtomicLong();
    private final AtomicLong samplesWithDoubles = new AtomicLong();
    private final AtomicInteger worstDoubles = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();
    private final AtomicLong failedSamples = new AtomicLong();
    private volatile boolean stopped;
    private Thread thread;

    OpenAttemptSampler(Database db, Duration every) {
        this.db = db;
        this.every = every;
    }

    void start() {
        thread = Thread.ofPlatform().name("chaos-open-attempt-sampler").daemon().start(this::loop);
    }

    private void loop() {
        while (!stopped) {
            try {
                sampleOnce();
            } catch (RuntimeException e) {
                failedSamples.incrementAndGet();
            }
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    void sampleOnce() {
        int[] row = db.withConnection(c -> {
            try (var rs = c.createStatement().executeQuery(SAMPLE)) {
                rs.next();
                return new int[] {rs.getInt(1), rs.getInt(2)};
            }
        });
        samples.incrementAndGet();
        if (row[0] > 0) {
            samplesWithDoubles.incrementAndGet();
        }
        worstDoubles.accumulateAndGet(row[0], Math::max);
        mostInFlight.accumulateAndGet(row[1], Math::max);
    }

    record Report(long samples, long samplesWithDoubles, int worstDoubles, int mostInFlight, long failedSamples) {}

    Report report() {
        return new Report(
                samples.get(), samplesWithDoubles.get(), worstDoubles.get(), mostInFlight.get(), failedSamples.get());
    }

    @Override
    public void close() {
        stopped = true;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
