package io.idem.core.breaker;

import java.time.Duration;
import java.util.Objects;

/**
 * When a provider's breaker opens and for how long.
 *
 * @param failureThreshold consecutive retryable failures that open it
 * @param latencyThreshold p95 latency that opens it when sustained over {@code latencyWindow}
 * @param latencyMinSamples calls needed in the window before latency may open it
 * @param cooldown the first open period; doubles on each consecutive reopen up to {@code maxCooldown}
 * @param healthFailureThreshold consecutive failed health checks that open it (counted apart from
 *     real calls: a passing check never clears a real call's failure)
 * @param unusableFor how long a vendor answer that says it cannot serve us (quota spent, bad
 *     credentials, model not found) closes the provider
 */
public record BreakerSettings(
        int failureThreshold,
        Duration latencyThreshold,
        Duration latencyWindow,
        int latencyMinSamples,
        Duration cooldown,
        Duration maxCooldown,
        Duration probeTimeout,
        int healthFailureThreshold,
        Duration unusableFor) {

    /** What a provider closed by an unusable answer waits before it is tried again, unless configured. */
    public static final Duration UNUSABLE_FOR = Duration.ofMinutes(5);

    public static final BreakerSettings DEFAULTS = new BreakerSettings(
            3,
            Duration.ofSeconds(5),
            Duration.ofMinutes(2),
            20,
            Duration.ofSeconds(60),
            Duration.ofMinutes(30),
            Duration.ofMinutes(2));

    /** Settings whose health checks open after as many failures as calls do, unusable answers closing for 5 minutes. */
    public BreakerSettings(
            int failureThreshold,
            Duration latencyThreshold,
            Duration latencyWindow,
            int latencyMinSamples,
            Duration cooldown,
            Duration maxCooldown,
            Duration probeTimeout) {
        this(
                failureThreshold,
                latencyThreshold,
                latencyWindow,
                latencyMinSamples,
                cooldown,
                maxCooldown,
                probeTimeout,
                failureThreshold,
                UNUSABLE_FOR);
    }

    public BreakerSettings {
        if (failureThreshold < 1) {
            throw new IllegalArgumentException("breaker failure threshold must be at least 1, was " + failureThreshold);
        }
        Objects.requireNonNull(latencyThreshold, "latencyThreshold");
        Objects.requireNonNull(latencyWindow, "latencyWindow");
        Objects.requireNonNull(cooldown, "cooldown");
        if (cooldown.isNegative() || cooldown.isZero()) {
            throw new IllegalArgumentException("breaker cooldown must be positive, was " + cooldown);
        }
        if (maxCooldown.compareTo(cooldown) < 0) {
            throw new IllegalArgumentException(
                    "breaker max cooldown " + maxCooldown + " is shorter than the cooldown " + cooldown);
        }
        Objects.requireNonNull(probeTimeout, "probeTimeout");
        if (healthFailureThreshold < 1) {
            throw new IllegalArgumentException(
                    "breaker health failure threshold must be at least 1, was " + healthFailureThreshold);
        }
        Objects.requireNonNull(unusableFor, "unusableFor");
        if (unusableFor.isNegative() || unusableFor.isZero()) {
            throw new IllegalArgumentException("breaker unusable period must be positive, was " + unusableFor);
        }
    }

    /** The cooldown after the {@code reopens}-th consecutive reopen (0 = first open). */
    public Duration cooldownAfter(int reopens) {
        Duration d = cooldown;
        for (int i = 0; i < reopens && d.compareTo(maxCooldown) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(maxCooldown) > 0 ? maxCooldown : d;
    }
}
