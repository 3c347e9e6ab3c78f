package io.idem.core.spi;

import io.idem.core.domain.ApiKey;
import io.idem.core.domain.Role;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * API keys, stored by the hash of their secret (never the secret). Keys are revoked, never
 * deleted. Implementations are thread-safe; the first-admin bootstrap is one decision across every
 * node sharing the store.
 */
public interface ApiKeys {

    /**
     * The attributes an admin may set; a {@code null} field stays as it is, {@code
     * Optional.empty()} clears it.
     *
     * @param failoverDefaults the key's default chat chain as JSON (validated by the caller)
     * @param dedupeWindow the key's opt-in merge window for keyless requests, whole seconds
     */
    record Attributes(
            Boolean adultApproved,
            Optional<String> jurisdiction,
            Optional<BigDecimal> dailyBudgetUsd,
            Optional<BigDecimal> monthlyBudgetUsd,
            Optional<String> failoverDefaults,
            Optional<java.time.Duration> dedupeWindow) {

        /** Without touching the chat failover defaults or the dedupe window. */
        public Attributes(
                Boolean adultApproved,
                Optional<String> jurisdiction,
                Optional<BigDecimal> dailyBudgetUsd,
                Optional<BigDecimal> monthlyBudgetUsd) {
            this(adultApproved, jurisdiction, dailyBudgetUsd, monthlyBudgetUsd, null, null);
        }

        /** Setting nothing: every attribute stays as it is. */
        public static final Attributes UNCHANGED = new Attributes(null, null, null, null, null, null);
    }

    ApiKey insert(UUID id, String prefix, byte[] secretHash, String owner, Role role, Instant now);

    /** The live (not revoked) key with this secret hash. */
    Optional<ApiKey> findActive(byte[] secretHash);

    /**
     * Inserts the first admin key unless a live admin key exists: of several nodes starting
     * together on an empty store exactly one inserts. Returns the key when this call created it.
     */
    Optional<ApiKey> insertFirstAdmin(UUID id, String prefix, byte[] secretHash, Instant now);

    /**
     * Inserts an admin key with this secret hash unless one with it exists (the configured
     * bootstrap key); {@code true} when this call inserted it. Never fails on a race.
     */
    boolean insertAdminIfAbsent(UUID id, String prefix, byte[] secretHash, Instant now);

    /** How many live admin keys there are. */
    int countAdmins();

    /** Every key, revoked ones too, oldest first. */
    List<ApiKey> list();

    /** Revokes a key; {@code false} if there is no such live key. */
    boolean revoke(UUID id, Instant now);

    /** Sets attributes of a live key; empty if there is no such key. */
    Optional<ApiKey> update(UUID id, Attributes attributes);
}
