package io.idem.core.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A stored API key: never the secret, only its visible prefix, with the attributes routing and
 * budgets read.
 *
 * @param jurisdiction where this key's data must be processed (providers must declare it)
 * @param dailyBudgetUsd billed plus at-risk spend per UTC day past which requests are refused (429)
 * @param monthlyBudgetUsd the same per UTC month
 */
public record ApiKey(
        UUID id,
        String prefix,
        String owner,
        Role role,
        Instant createdAt,
        Optional<Instant> revokedAt,
        boolean adultApproved,
        Optional<String> jurisdiction,
        Optional<BigDecimal> dailyBudgetUsd,
        Optional<BigDecimal> monthlyBudgetUsd) {

    public ApiKey {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(revokedAt, "revokedAt");
        Objects.requireNonNull(jurisdiction, "jurisdiction");
        Objects.requireNonNull(dailyBudgetUsd, "dailyBudgetUsd");
        Objects.requireNonNull(monthlyBudgetUsd, "monthlyBudgetUsd");
    }

    /** A new key with no routing attributes. */
    public ApiKey(UUID id, String prefix, String owner, Role role, Instant createdAt, Optional<Instant> revokedAt) {
        this(
                id,
                prefix,
                owner,
                role,
                createdAt,
                revokedAt,
                false,
                Optional.empty(),
                Optional.empty(),
                Optional.empty());
    }
}
