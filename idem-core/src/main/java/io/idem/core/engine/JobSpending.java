package io.idem.core.engine;

import io.idem.core.breaker.Admission;
import io.idem.core.budget.BudgetScope;
import io.idem.core.budget.CostCeiling;
import io.idem.core.budget.Hold;
import io.idem.core.domain.Billable;
import io.idem.core.domain.Job;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.JobQueueStore;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Whether a job's next candidate may cost what it is expected to: the job's own ceiling ({@code
 * max_cost_usd}), then the gate (budget, breaker), then a hold of the expected cost on the
 * provider's and the key's budgets. A candidate past the ceiling or its provider's budget is
 * skipped; a key with no room left blocks the job (a gateway block, never a reason to fail over).
 * Thread-safe.
 */
final class JobSpending {
    /** How long a hold may wait for its attempt to be written ahead before the sweeper releases it. */
    static final Duration HOLD_FOR = Duration.ofMinutes(1);
    /**
     * How long the claim's reading of the job's key stands in for asking the budgets again: a key
     * without budgets on an uncapped provider goes out without a hold (no round trip). As long as
     * the API's key cache, so a budget set on a key binds jobs as soon as it binds chat calls.
     */
    static final Duration KEY_READING_STANDS = Duration.ofSeconds(5);

    private final JobQueueStore store;
    private final ProviderGate gate;

    JobSpending(JobQueueStore store, ProviderGate gate) {
        this.store = store;
        this.gate = gate;
    }

    /** What became of asking to try one candidate. */
    sealed interface Admitted {
        /** The call may go out; {@code held}: a budget hold waits to be settled. */
        record Go(boolean probe, boolean held) implements Admitted {}

        /** This candidate is skipped for {@code reason}; the next may still go. */
        record Skip(String reason) implements Admitted {}

        /** No candidate may go: the job fails with {@code failure}. */
        record Block(JobMove.Fail failure) implements Admitted {}
    }

    Admitted admit(ClaimedJob claimed, String provider, UUID attemptId, BigDecimal expected, Instant now) {
        Job job = claimed.job();
        Optional<BigDecimal> ceiling = job.spec().maxCostUsd();
        if (ceiling.isPresent() && !CostCeiling.fits(ceiling, store.costSoFar(job.id()), expected)) {
            return new Admitted.Skip(CostCeiling.OVER);
        }
        boolean probe;
        switch (gate.admit(provider)) {
            case Admission.Denied denied -> {
                return new Admitted.Skip(denied.reason());
            }
            case Admission.Allowed allowed -> probe = allowed.probe();
        }
        if (!gate.budgets().capped(provider) && keyUnbudgeted(claimed, now)) {
            return new Admitted.Go(probe, false);
        }
        return switch (gate.hold(attemptId, provider, Optional.of(job.id()), Optional.empty(), expected, HOLD_FOR)) {
            case Hold.Held held -> new Admitted.Go(probe, true);
            case Hold.Uncapped uncapped -> new Admitted.Go(probe, false);
            case Hold.Refused refused -> refused(refused);
        };
    }

    /** The claim found the job's key without budgets, and not longer ago than {@link #KEY_READING_STANDS}. */
    private static boolean keyUnbudgeted(ClaimedJob claimed, Instant now) {
        return !claimed.keyBudgeted() && now.isBefore(claimed.claimedAt().plus(KEY_READING_STANDS));
    }

    /** A provider without room is skipped; a key without room blocks the job. */
    private static Admitted refused(Hold.Refused refused) {
        if (refused.scope() == BudgetScope.PROVIDER) {
            return new Admitted.Skip(refused.scope().reason());
        }
        return new Admitted.Block(new JobMove.Fail(
                refused.scope().reason(),
                "the API key has no room left in its " + refused.scope().period() + " budget of "
                        + refused.capUsd().toPlainString() + " USD",
                "budget"));
    }

    /** The attempt was not written ahead: nothing went out, so the hold goes at once. */
    void release(Admitted.Go go, UUID attemptId) {
        if (go.held()) {
            gate.release(attemptId);
        }
    }

    /** The call ended: its hold becomes what it cost. */
    void settle(Admitted.Go go, UUID attemptId, Billable billable, BigDecimal cost) {
        if (go.held()) {
            gate.settle(attemptId, billable, cost);
        }
    }
}
