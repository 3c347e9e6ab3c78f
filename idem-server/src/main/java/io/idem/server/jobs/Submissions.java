package io.idem.server.jobs;

import io.idem.core.domain.JobSpec;
import io.idem.core.spi.JobIntake;
import io.idem.server.auth.ServerSecret;
import io.idem.server.http.ApiErrors;
import io.idem.server.http.Caller;
import io.idem.server.http.IdempotencyKey;
import io.idem.server.http.KeyBudget;
import io.idem.server.http.RetryMerge;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Accepts a validated job: the key's budget first, then the idempotency digest under the server
 * secret (the raw key is never stored), durable intake, then a wake-up for the workers (never
 * inside the insert transaction). A request without {@code Idempotency-Key} that {@link
 * RetryMerge} tracks gets an implicit key, {@code HMAC(secret, api key id ‖ request hash)}, so an
 * SDK's retry of it is the same job. Thread-safe.
 */
public final class Submissions {
    private final JobIntake intake;
    private final KeyBudget budget;
    private final ServerSecret secret;
    private final Duration retention;
    private final RetryMerge merge;
    private final Runnable wakeWorkers;
    private final InstantSource clock;

    public Submissions(
            JobIntake intake,
            KeyBudget budget,
            ServerSecret secret,
            Duration retention,
            RetryMerge merge,
            Runnable wakeWorkers,
            InstantSource clock) {
        this.intake = intake;
        this.budget = budget;
        this.secret = secret;
        this.retention = retention;
        this.merge = merge;
        this.wakeWorkers = wakeWorkers;
        this.clock = clock;
    }

    /**
     * Accepts the job of an API request: its {@code Idempotency-Key}, else its implicit key when it
     * is tracked. A replay answers with the original request's {@code X-Request-Id}.
     */
    public JobIntake.Accepted submit(Context ctx, Caller caller, JobSpec spec) {
        String key = IdempotencyKey.from(ctx);
        Optional<RetryMerge.Tracking> tracking = merge.track(ctx, caller);
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        byte[] hash = JobRequests.hash(spec);
        String requestId = ApiErrors.requestId(ctx);
        JobIntake.IdempotencyClaim claim;
        if (key != null) {
            claim = new JobIntake.IdempotencyClaim(
                    secret.hmac("idempotency", caller.owner(), key),
                    hash,
                    retention,
                    requestId,
                    JobIntake.IdempotencyClaim.ALWAYS);
        } else {
            claim = tracking.map(t -> implicit(caller, hash, t, requestId, now)).orElse(null);
        }
        JobIntake.Accepted accepted = accept(caller, spec, claim, now);
        if (accepted instanceof JobIntake.Accepted.Replayed replayed) {
            ApiErrors.replayRequestId(ctx, replayed.requestId().orElse(null));
        }
        return accepted;
    }

    /** Accepts a job under a client's key ({@code null}: none), as the console submits it. */
    public JobIntake.Accepted submit(Caller caller, JobSpec spec, String idempotencyKey) {
        return accept(
                caller,
                spec,
                claim(caller.owner(), spec, idempotencyKey),
                clock.instant().truncatedTo(ChronoUnit.MICROS));
    }

    /**
     * Accepts a job of {@code owner} that no API key submits (the embedding API's), under {@code
     * idempotencyKey} ({@code null}: none) digested exactly as an {@code Idempotency-Key} of that
     * owner is, so the same key and request replays across both.
     */
    public JobIntake.Accepted submitAs(String owner, JobSpec spec, String idempotencyKey) {
        IdempotencyKey.check(idempotencyKey);
        return admit(
                owner,
                null,
                spec,
                claim(owner, spec, idempotencyKey),
                clock.instant().truncatedTo(ChronoUnit.MICROS));
    }

    private JobIntake.IdempotencyClaim claim(String owner, JobSpec spec, String idempotencyKey) {
        return idempotencyKey == null
                ? null
                : new JobIntake.IdempotencyClaim(
                        secret.hmac("idempotency", owner, idempotencyKey), JobRequests.hash(spec), retention);
    }

    private JobIntake.IdempotencyClaim implicit(
            Caller caller, byte[] hash, RetryMerge.Tracking tracking, String requestId, Instant now) {
        byte[] digest = secret.hmac(
                "implicit-idempotency",
                caller.key().id().toString(),
                HexFormat.of().formatHex(hash));
        Instant countsFrom = tracking.window().map(now::minus).orElse(JobIntake.IdempotencyClaim.NEVER);
        return new JobIntake.IdempotencyClaim(digest, hash, tracking.keep(), requestId, countsFrom);
    }

    private JobIntake.Accepted accept(Caller caller, JobSpec spec, JobIntake.IdempotencyClaim claim, Instant now) {
        budget.check(caller);
        return admit(caller.owner(), caller.key().id(), spec, claim, now);
    }

    /** Durable intake, then a wake-up for the workers when the job is new. */
    private JobIntake.Accepted admit(
            String owner, java.util.UUID apiKeyId, JobSpec spec, JobIntake.IdempotencyClaim claim, Instant now) {
        JobIntake.Accepted accepted = intake.accept(owner, apiKeyId, spec, claim, now);
        if (accepted instanceof JobIntake.Accepted.Created) {
            wakeWorkers.run();
        }
        return accepted;
    }
}
