package io.idem.core.engine;

import io.idem.core.domain.JobSpec;
import java.time.Duration;
import java.util.Objects;

/**
 * How jobs wait out providers that are closed for a while (DESIGN §4, deferral and the whole-job
 * deadline). Immutable.
 *
 * @param defaultDeadline a job's deadline when its request names none
 * @param maxDeadline the longest deadline a request may ask for
 * @param onBudgetExhausted whether a provider at its daily budget makes a job wait for the UTC day
 *     to turn; if not, such a provider is passed over like a disabled one
 * @param maxTimeout the longest {@code timeout} one call of a job may ask for ({@code
 *     jobs.max_timeout_seconds}; a video can take many minutes)
 */
public record DeferralSettings(
        Duration defaultDeadline, Duration maxDeadline, boolean onBudgetExhausted, Duration maxTimeout) {
    public static final DeferralSettings DEFAULTS = new DeferralSettings(
            Duration.ofSeconds(JobSpec.DEFAULT_DEADLINE_SECONDS),
            Duration.ofSeconds(86_400),
            false,
            Duration.ofSeconds(JobSpec.DEFAULT_MAX_TIMEOUT_SECONDS));

    /** Settings with the default maximum call timeout. */
    public DeferralSettings(Duration defaultDeadline, Duration maxDeadline, boolean onBudgetExhausted) {
        this(defaultDeadline, maxDeadline, onBudgetExhausted, Duration.ofSeconds(JobSpec.DEFAULT_MAX_TIMEOUT_SECONDS));
    }

    public DeferralSettings {
        Objects.requireNonNull(defaultDeadline, "defaultDeadline");
        Objects.requireNonNull(maxDeadline, "maxDeadline");
        if (maxDeadline.toSeconds() < 1 || maxDeadline.toSeconds() > JobSpec.MAX_DEADLINE_SECONDS) {
            throw new IllegalArgumentException("the maximum job deadline must be 1.." + JobSpec.MAX_DEADLINE_SECONDS
                    + " seconds, was " + maxDeadline.toSeconds());
        }
        if (defaultDeadline.toSeconds() < 1 || defaultDeadline.compareTo(maxDeadline) > 0) {
            throw new IllegalArgumentException("the default job deadline must be 1.." + maxDeadline.toSeconds()
                    + " seconds (the maximum), was " + defaultDeadline.toSeconds());
        }
        Objects.requireNonNull(maxTimeout, "maxTimeout");
        if (maxTimeout.toSeconds() < 1 || maxTimeout.toSeconds() > JobSpec.MAX_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException("the maximum call timeout must be 1.." + JobSpec.MAX_TIMEOUT_SECONDS
                    + " seconds, was " + maxTimeout.toSeconds());
        }
    }
}
