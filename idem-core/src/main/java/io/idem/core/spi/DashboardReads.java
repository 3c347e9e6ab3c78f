package io.idem.core.spi;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The operator dashboard's time series, read from the audit (job and chat attempts), the jobs and
 * their events, over a {@link Window} of equal buckets. Each method is one read; a bucket without
 * activity is simply absent from a per-bucket list. Reads only; implementations are thread-safe.
 */
public interface DashboardReads {

    /**
     * Billed spend per provider and bucket: the audited cost of job and chat attempts marked billed,
     * by the bucket their call started in.
     */
    List<ProviderSpend> spend(Window window);

    /**
     * p95 latency per provider and bucket, over job and chat attempts that made a call (a streamed
     * chat attempt counts its time to the first token), by the bucket the call started in.
     */
    List<ProviderLatency> latency(Window window);

    /**
     * Per bucket, how many jobs and chat calls made a provider call and how many of them needed more
     * than one attempt. A job counts in the bucket it was created in, by the attempts of its first
     * round (an operator's retry is not a fallback); a chat call in the bucket its first attempt
     * started in, by the models it tried (a skipped model made no call).
     */
    List<Fallbacks> fallbacks(Window window);

    /**
     * Money at risk at each bucket's end ({@link Window#end(int)}), one value per bucket: the expected
     * cost of every job attempt that had started by then and whose billing was not yet known then
     * (in flight, unconfirmed, or settled later by reconcile, an operator or a cancel), plus every
     * chat attempt of unknown billing that had started by then (a chat attempt's billing is never
     * learned later; in flight, it is not in the audit yet).
     */
    List<BigDecimal> moneyAtRisk(Window window);

    /** How many jobs were parked in manual_review at each bucket's end, one value per bucket. */
    List<Long> reviewDepth(Window window);

    /**
     * {@code buckets} consecutive buckets of {@code step} from {@code start}; the last one may still
     * be running at {@code now}, which then is its end.
     */
    record Window(Instant start, Duration step, int buckets, Instant now) {
        public static final int MAX_BUCKETS = 1000;

        public Window {
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(step, "step");
            Objects.requireNonNull(now, "now");
            if (step.isNegative() || step.toSeconds() < 1) {
                throw new IllegalArgumentException("a bucket must last at least a second, was " + step);
            }
            if (buckets < 1 || buckets > MAX_BUCKETS) {
                throw new IllegalArgumentException("buckets must be 1.." + MAX_BUCKETS + ", was " + buckets);
            }
            if (now.isBefore(start)) {
                throw new IllegalArgumentException("now " + now + " is before the window's start " + start);
            }
        }

        /** The last {@code buckets} buckets aligned to {@code step} (from the epoch), the last one holding {@code now}. */
        public static Window endingAt(Instant now, Duration step, int buckets) {
            long stepSeconds = step.toSeconds();
            long current = Math.floorDiv(now.getEpochSecond(), stepSeconds) * stepSeconds;
            Instant start = Instant.ofEpochSecond(current).minus(step.multipliedBy(buckets - 1L));
            return new Window(start, step, buckets, now);
        }

        public Instant startOf(int bucket) {
            return start.plus(step.multipliedBy(bucket));
        }

        /** Where bucket {@code bucket} ends: its next bucket's start, or {@code now} if that is earlier. */
        public Instant end(int bucket) {
            Instant end = startOf(bucket + 1);
            return end.isAfter(now) ? now : end;
        }
    }

    /** Billed spend of one provider in one bucket. */
    record ProviderSpend(String provider, int bucket, BigDecimal billedUsd) {}

    /** p95 latency of one provider's calls in one bucket, and how many calls it is taken over. */
    record ProviderLatency(String provider, int bucket, long p95Ms, long calls) {}

    /**
     * One bucket's jobs and chat calls that made a provider call, and how many needed more than one
     * attempt.
     */
    record Fallbacks(int bucket, long jobs, long jobsFellBack, long chatCalls, long chatFellBack) {}
}
