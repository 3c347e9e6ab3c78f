package io.idem.server.api;

import io.idem.core.domain.JobSpec;
import io.idem.postgres.PgJobIntake;
import io.idem.server.auth.Caller;
import io.idem.server.auth.ServerSecret;
import java.time.Duration;
import java.time.InstantSource;

/**
 * Accepts a validated job: idempotency digest under the server secret (the raw key is never
 * stored), durable intake, then a wake-up for the workers (never inside the insert transaction).
 */
public final class Submissions {
    private final PgJobIntake intake;
    private final ServerSecret secret;
    private final Duration retention;
    private final Runnable wakeWorkers;
    private final InstantSource clock;

    public Submissions(
            PgJobIntake intake, ServerSecret secret, Duration retention, Runnable wakeWorkers, InstantSource clock) {
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

    public PgJobIntake.Accepted submit(Caller caller, JobSpec spec, String idempotencyKey) {
        PgJobIntake.IdempotencyClaim claim = idempotencyKey == null
                ? null
                : new PgJobIntake.IdempotencyClaim(
                        secret.hmac("idempotency", caller.owner(), idempotencyKey), JobRequests.hash(spec), retention);
        PgJobIntake.Accepted accepted = intake.accept(caller.owner(), spec, claim, clock.instant());
        if (accepted instanceof PgJobIntake.Accepted.Created) {
            wakeWorkers.run();
        }
        return accepted;
    }
}
