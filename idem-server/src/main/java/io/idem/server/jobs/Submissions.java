package io.idem.server.jobs;

import io.idem.core.domain.JobSpec;
import io.idem.core.spi.JobIntake;
import io.idem.server.auth.ServerSecret;
import io.idem.server.http.Caller;
import io.idem.server.http.KeyBudget;
import java.time.Duration;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;

/**
 * Accepts a validated job: the key's budget first, then the idempotency digest under the server
 * secret (the raw key is never stored), durable intake, then a wake-up for the workers (never
 * inside the insert transaction). Thread-safe.
 */
public final class Submissions {
    private final JobIntake intake;
    private final KeyBudget budget;
    private final ServerSecret secret;
    private final Duration retention;
    private final Runnable wakeWorkers;
    private final InstantSource clock;

    public Submissions(
            JobIntake intake,
            KeyBudget budget,
            ServerSecret secret,
            Duration retention,
            Runnable wakeWorkers,
            InstantSource clock) {
        this.intake = intake;
        this.budget = budget;
        this.secret = secret;
        this.retention = retention;
        this.wakeWorkers = wakeWorkers;
        this.clock = clock;
    }

    public JobIntake.Accepted submit(Caller caller, JobSpec spec, String idempotencyKey) {
        budget.check(caller);
        JobIntake.IdempotencyClaim claim = idempotencyKey == null
                ? null
                : new JobIntake.IdempotencyClaim(
                        secret.hmac("idempotency", caller.owner(), idempotencyKey), JobRequests.hash(spec), retention);
        JobIntake.Accepted accepted = intake.accept(
                caller.owner(), caller.key().id(), spec, claim, clock.instant().truncatedTo(ChronoUnit.MICROS));
        if (accepted instanceof JobIntake.Accepted.Created) {
            wakeWorkers.run();
        }
        return accepted;
    }
}
