package io.idem.providers.runware;

import io.idem.providers.http.MediaDownloader;
import java.time.Duration;
import java.util.Objects;

/**
 * The adapter's own timings and limits, fixed in production and shortened by tests.
 *
 * @param firstPoll the wait before the first {@code getResponse}; later waits grow by half up to
 *     {@code maxPoll} (Runware asks for 1–2 s intervals with backoff)
 * @param lookupTimeout the longest one {@code getResponse} may take
 * @param promptRefusal a submit answered 503 within this long was refused at the door; a slower
 *     503 may have followed real work and is unconfirmed
 * @param notFoundTrustedFor how long after an attempt started a "no such task" still proves the
 *     task never arrived; Runware does not document how long it remembers finished tasks, so an
 *     older "not found" proves nothing and is left to an operator
 * @param downloadTimeout how long fetching one delivered image URL may take
 * @param maxDownloadBytes the largest image accepted from a URL
 */
record RunwareTuning(
        Duration firstPoll,
        Duration maxPoll,
        Duration lookupTimeout,
        Duration promptRefusal,
        Duration notFoundTrustedFor,
        Duration downloadTimeout,
        long maxDownloadBytes) {

    static final RunwareTuning DEFAULTS = new RunwareTuning(
            Duration.ofSeconds(1),
            Duration.ofSeconds(5),
            Duration.ofSeconds(10),
            Duration.ofSeconds(5),
            Duration.ofHours(1),
            Duration.ofSeconds(60),
            MediaDownloader.DEFAULT_MAX_BYTES);

    RunwareTuning {
        for (Duration d :
                new Duration[] {firstPoll, maxPoll, lookupTimeout, promptRefusal, notFoundTrustedFor, downloadTimeout
                }) {
            Objects.requireNonNull(d, "durations");
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("every Runware timing must be positive, was " + d);
            }
        }
        if (maxPoll.compareTo(firstPoll) < 0) {
            throw new IllegalArgumentException("maxPoll " + maxPoll + " is shorter than firstPoll " + firstPoll);
        }
        if (maxDownloadBytes <= 0) {
            throw new IllegalArgumentException("maxDownloadBytes must be positive, was " + maxDownloadBytes);
        }
    }

    /** The same limits with other poll waits. */
    RunwareTuning withPolling(Duration first, Duration max) {
        return new RunwareTuning(
                first, max, lookupTimeout, promptRefusal, notFoundTrustedFor, downloadTimeout, maxDownloadBytes);
    }
}
