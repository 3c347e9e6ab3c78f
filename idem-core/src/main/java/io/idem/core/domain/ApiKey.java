package io.idem.core.domain;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A stored API key: never the secret, only its visible prefix, with the settings an admin gave it.
 *
 * @param settings what routing, budgets, chat chains and retry merging read
 */
public record ApiKey(
        UUID id,
        String prefix,
        String owner,
        Role role,
        Instant createdAt,
        Optional<Instant> revokedAt,
        Settings settings) {

    public ApiKey {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(revokedAt, "revokedAt");
        Objects.requireNonNull(settings, "settings");
    }

    /** A new key with no settings. */
    public ApiKey(UUID id, String prefix, String owner, Role role, Instant createdAt, Optional<Instant> revokedAt) {
        this(id, prefix, owner, role, createdAt, revokedAt, Settings.NONE);
    }

    /**
     * What an admin sets on a key.
     *
     * @param jurisdiction where this key's data must be processed (providers must declare it)
     * @param dailyBudgetUsd billed plus at-risk spend per UTC day past which requests are refused (429)
     * @param monthlyBudgetUsd the same per UTC month
     * @param failoverDefaults the key's default chat chain as stored (JSON, validated when set), used
     *     when a chat request names no chain of its own
     * @param dedupeWindow how long a request without {@code Idempotency-Key} is merged with an earlier
     *     identical one from this key, whatever its retry headers (opt-in; none: only SDK retries are)
     */
    public record Settings(
            boolean adultApproved,
            Optional<String> jurisdiction,
            Optional<BigDecimal> dailyBudgetUsd,
            Optional<BigDecimal> monthlyBudgetUsd,
            Optional<String> failoverDefaults,
            Optional<Duration> dedupeWindow) {
        public static final Settings NONE = new Settings(
                false, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

        public Settings {
            Objects.requireNonNull(jurisdiction, "jurisdiction");
            Objects.requireNonNull(dailyBudgetUsd, "dailyBudgetUsd");
            Objects.requireNonNull(monthlyBudgetUsd, "monthlyBudgetUsd");
            Objects.requireNonNull(failoverDefaults, "failoverDefaults");
            Objects.requireNonNull(dedupeWindow, "dedupeWindow");
            dedupeWindow.ifPresent(w -> {
                if (w.isNegative() || w.isZero()) {
                    throw new IllegalArgumentException("a dedupe window must be positive, was " + w);
                }
            });
        }
    }

    public boolean adultApproved() {
        return settings.adultApproved();
    }

    public Optional<String> jurisdiction() {
        return settings.jurisdiction();
    }

    public Optional<BigDecimal> dailyBudgetUsd() {
        return settings.dailyBudgetUsd();
    }

    public Optional<BigDecimal> monthlyBudgetUsd() {
        return settings.monthlyBudgetUsd();
    }

    public Optional<String> failoverDefaults() {
        return settings.failoverDefaults();
    }

    public Optional<Duration> dedupeWindow() {
        return settings.dedupeWindow();
    }
}
