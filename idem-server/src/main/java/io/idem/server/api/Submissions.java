package io.idem.server.api;

import io.idem.core.domain.JobSpec;
import io.idem.core.spi.JobIntake;
import io.idem.server.auth.Caller;
import io.idem.server.auth.ServerSecret;
import java.time.Duration;
import java.time.InstantSource;

/**
 * Accepts a validated job: idempotency digest under the server secret (the raw key is never
 * stored), durable intake, then a wake-up for the workers (never inside the insert transaction).
 */
public final class Submissions {
    private final JobIntake intake;
    private final ServerSecret secret;
    private final Duration retention;
    private final Runnable wakeWorkers;
    private final InstantSource clock;
    private final io.idem.core.spi.KeySpend spend;

    public Submissions(
            JobIntake intake,
            ServerSecret secret,
            Duration retention,
            Runnable wakeWorkers,
            InstantSource clock,
            io.idem.core.spi.KeySpend spend) {
        this.spend = spend;
        this.intake = intake;
        this.secret = secret;
        this.retention = retention;
        this.wakeWorkers = wakeWorkers;
        this.clock = clock;
    }

    /** Validates an {@code Idempotency-Key} header: 1..255 printable ASCII characters. */
    public static String checkKey(String key) {
        if (key == null) {
            return null;
        }
        if (key.isEmpty() || key.length() > 255) {
            throw ApiError.badRequest("invalid_idempotency_key", "Idempotency-Key must be 1..255 characters");
        }
        for (int i = 0; i < key.length(); i++) {
            char ch = key.charAt(i);
            if (ch < 0x20 || ch > 0x7e) {
                throw ApiError.badRequest("invalid_idempotency_key", "Idempotency-Key must be printable ASCII");
            }
        }
        return key;
    }

    /**
     * Refuses with 429 when the key has spent its daily or monthly budget: a gateway block, before
     * any provider is called, and never a reason to fail over.
     */
    private void checkKeyBudget(Caller caller) {
        var key = caller.key();
        if (key.dailyBudgetUsd().isEmpty() && key.monthlyBudgetUsd().isEmpty()) {
            return;
        }
        var today = clock.instant().atZone(java.time.ZoneOffset.UTC).toLocalDate();
        key.dailyBudgetUsd()
                .ifPresent(limit -> refuseIfSpent(
                        caller,
                        limit,
                        today.atStartOfDay(java.time.ZoneOffset.UTC).toInstant(),
                        "daily"));
        key.monthlyBudgetUsd()
                .ifPresent(limit -> refuseIfSpent(
                        caller,
                        limit,
                        today.withDayOfMonth(1)
                                .atStartOfDay(java.time.ZoneOffset.UTC)
                                .toInstant(),
                        "monthly"));
    }

    private void refuseIfSpent(Caller caller, java.math.BigDecimal limit, java.time.Instant since, String period) {
        java.math.BigDecimal spent = spend.keySpendSince(caller.key().id(), since);
        if (spent.compareTo(limit) >= 0) {
            throw new ApiError(
                    429,
                    "budget_exceeded",
                    "this key has spent its " + period + " budget of " + limit + " USD",
                    java.util.Map.of("spent_usd", spent.toPlainString(), "budget_usd", limit.toPlainString()));
        }
    }

    public JobIntake.Accepted submit(Caller caller, JobSpec spec, String idempotencyKey) {
        checkKeyBudget(caller);
        JobIntake.IdempotencyClaim claim = idempotencyKey == null
                ? null
                : new JobIntake.IdempotencyClaim(
                        secret.hmac("idempotency", caller.owner(), idempotencyKey), JobRequests.hash(spec), retention);
        JobIntake.Accepted accepted = intake.accept(
                caller.owner(),
                caller.key().id(),
                spec,
                claim,
                clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MICROS));
        if (accepted instanceof JobIntake.Accepted.Created) {
            wakeWorkers.run();
        }
        return accepted;
    }
}
