package io.idem.core.engine;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.Job;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.CancelStore;
import io.idem.core.spi.Lease;
import java.time.InstantSource;
import java.util.Optional;

/**
 * Cancels a job: a queued job simply; an in-flight job through its provider's cancel where there is
 * one. When the provider cannot confirm the cancel, the job parks ({@code cancel_unconfirmed})
 * rather than pretend nothing was billed.
 */
public final class JobCanceller {
    private final CancelStore store;
    private final ProviderRegistry providers;
    private final InstantSource clock;

    public JobCanceller(CancelStore store, ProviderRegistry providers, InstantSource clock) {
        this.store = store;
        this.providers = providers;
        this.clock = clock;
    }

    /** What a cancel did. */
    public enum Result {
        CANCELED,
        PARKED,
        TOO_LATE
    }

    public Result cancel(Job job, String actor) {
        return switch (job.state()) {
            case QUEUED -> store.cancelQueued(job.id(), actor, clock.instant()) ? Result.CANCELED : Result.TOO_LATE;
            case RUNNING -> cancelRunning(job, actor);
            case SUCCEEDED, FAILED, MANUAL_REVIEW, CANCELED -> Result.TOO_LATE;
        };
    }

    /** Long enough for the vendor's cancel answer; if the canceller dies, the sweeper takes over. */
    private static final java.time.Duration HOLD = java.time.Duration.ofSeconds(30);

    private Result cancelRunning(Job job, String actor) {
        // Take the job from its worker first: otherwise the worker could fail over to the next
        // provider (and bill it) between the vendor's cancel and our move.
        Optional<CancelStore.Takeover> takeover = store.takeOver(job.id(), HOLD, clock.instant());
        if (takeover.isEmpty()) {
            return Result.TOO_LATE;
        }
        Lease lease = takeover.get().lease();
        Optional<Attempt> open = takeover.get().openAttempt();
        if (open.isEmpty()) {
            boolean done = store.cancelRunning(lease, Optional.empty(), actor, "between calls", clock.instant());
            return done ? Result.CANCELED : Result.TOO_LATE;
        }
        Attempt attempt = open.get();
        CancelAnswer answer = providers
                .find(attempt.provider())
                .map(p -> ask(
                        p,
                        new AttemptRef(
                                attempt.provider(),
                                attempt.id().toString(),
                                attempt.providerRequestId(),
                                attempt.model(),
                                attempt.startedAt())))
                .orElse(new CancelAnswer.Unsupported("provider no longer configured"));
        return switch (answer) {
            case CancelAnswer.Canceled canceled ->
                store.cancelRunning(lease, Optional.of(attempt.id()), actor, canceled.detail(), clock.instant())
                        ? Result.CANCELED
                        : Result.TOO_LATE;
            case CancelAnswer.TooLate late -> park(lease, attempt, actor, "provider says too late: " + late.detail());
            case CancelAnswer.Unclear unclear -> park(lease, attempt, actor, unclear.detail());
            case CancelAnswer.Unsupported unsupported -> park(lease, attempt, actor, unsupported.detail());
        };
    }

    private Result park(Lease lease, Attempt attempt, String actor, String detail) {
        return store.parkRunning(lease, attempt.id(), actor, detail, clock.instant()) ? Result.PARKED : Result.TOO_LATE;
    }

    private static CancelAnswer ask(ProviderRegistry.Provider provider, AttemptRef ref) {
        try {
            return provider.adapter().cancel(ref);
        } catch (RuntimeException e) {
            return new CancelAnswer.Unclear("adapter failed: " + e.getClass().getSimpleName());
        }
    }
}
