package io.idem.core.engine;

import io.idem.core.domain.Job;
import io.idem.core.moderation.ModerationPolicy;
import io.idem.core.moderation.ModerationVerdict;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.pricing.AuditedCost;
import io.idem.core.spi.AheadResult;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.AttemptDraft;
import io.idem.core.spi.CallbackAddress;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.JobQueueStore;
import io.idem.core.spi.Settlement;
import io.idem.core.spi.StoredAsset;
import io.idem.core.time.Ticker;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one claimed job through its candidates (DESIGN §4 attempt protocol): write the attempt
 * ahead, call, settle. Moves on only after a definitive {@code Unavailable} (or a configuration
 * rejection in auto mode); one attempt per provider per round; stops the moment the lease is lost.
 * When no candidate took the job and nothing is at risk, it waits for a candidate that is closed
 * for a while (a deferral) until the job's deadline, which also cuts every call's timeout.
 */
final class JobRun {
    private static final Logger log = LoggerFactory.getLogger(JobRun.class);

    private final JobQueueStore store;
    private final ProviderRegistry providers;
    private final AssetStore assets;
    private final InstantSource clock;
    private final Ticker ticks;
    private final String actor;
    private final BooleanSupplier stopping;
    private final CallbackAddress callbacks;
    private final ProviderGate gate;
    private final Reopenings reopenings;

    /** No call starts with less of the job's deadline left than this: it could only time out, unconfirmed. */
    static final Duration MIN_CALL = Duration.ofSeconds(1);

    private final JobSpending spending;
    private final ModeratedResults moderation;

    JobRun(
            JobQueueStore store,
            ProviderRegistry providers,
            AssetStore assets,
            InstantSource clock,
            Ticker ticks,
            String actor,
            BooleanSupplier stopping,
            CallbackAddress callbacks,
            ProviderGate gate) {
        this(
                store,
                providers,
                assets,
                clock,
                ticks,
                actor,
                stopping,
                callbacks,
                gate,
                DeferralSettings.DEFAULTS,
                ModerationPolicy.NONE);
    }

    JobRun(
            JobQueueStore store,
            ProviderRegistry providers,
            AssetStore assets,
            InstantSource clock,
            Ticker ticks,
            String actor,
            BooleanSupplier stopping,
            CallbackAddress callbacks,
            ProviderGate gate,
            DeferralSettings deferral,
            ModerationPolicy policy) {
        this.store = store;
        this.providers = providers;
        this.assets = assets;
        this.clock = clock;
        this.ticks = ticks;
        this.actor = actor;
        this.stopping = stopping;
        this.callbacks = callbacks;
        this.gate = gate;
        this.reopenings = new Reopenings(gate, deferral.onBudgetExhausted());
        this.spending = new JobSpending(store, gate);
        this.moderation = new ModeratedResults(policy, assets);
    }

    void run(ClaimedJob claimed) {
        Job job = claimed.job();
        CandidatePass pass = new CandidatePass(reopenings);
        for (String name : job.spec().candidates()) {
            if (stopping.getAsBoolean()) {
                // Shutting down between calls: hand the job back rather than start another paid call.
                store.release(claimed.lease(), actor, clock.instant());
                return;
            }
            if (timeLeft(job).compareTo(MIN_CALL) < 0) {
                pass.pastDeadline(name, clock.instant());
                continue;
            }
            if (claimed.attemptedThisRound().contains(name)) {
                pass.movedPast(name, "already_attempted", true, clock.instant());
                continue;
            }
            Optional<ProviderRegistry.Provider> provider = providers.find(name);
            if (provider.isEmpty() || !provider.get().settings().enabled()) {
                if (job.spec().pinned()) {
                    finish(
                            claimed,
                            new JobMove.Fail(
                                    "provider_disabled", "provider '" + name + "' is not available", "config"));
                    return;
                }
                pass.spent(name, "disabled");
                continue;
            }
            Step step = attempt(claimed, provider.get());
            switch (step) {
                case Step.Done done -> {
                    return;
                }
                case Step.Next next -> pass.movedPast(name, next.marker(), next.called(), clock.instant());
            }
        }
        conclude(claimed, pass.end(clock.instant(), job.deadline()));
    }

    /** Nothing took the job: it waits for a closed candidate, or fails. */
    private void conclude(ClaimedJob claimed, CandidatePass.Verdict verdict) {
        switch (verdict) {
            case CandidatePass.Verdict.Fail fail -> finish(claimed, fail.failure());
            case CandidatePass.Verdict.Defer defer -> {
                if (!store.defer(claimed.lease(), defer.deferral(), actor, clock.instant())) {
                    log.warn(
                            "lease lost on job {} while deferring it",
                            claimed.job().id());
                }
            }
        }
    }

    /** What is left of the job's deadline now. */
    private Duration timeLeft(Job job) {
        return Duration.between(clock.instant(), job.deadline());
    }

    private sealed interface Step {
        record Done() implements Step {}

        /** The job moves past this candidate; {@code called}: it has an attempt in this round. */
        record Next(String marker, boolean called) implements Step {
            /** Skipped without a call. */
            Next(String marker) {
                this(marker, false);
            }
        }
    }

    private Step attempt(ClaimedJob claimed, ProviderRegistry.Provider provider) {
        Job job = claimed.job();
        String name = provider.settings().name();
        UUID attemptId = UUID.randomUUID();
        String vendorModel = provider.settings().vendorModel(job.spec().model());
        BigDecimal expected = provider.settings().pricing().expectedCost(job.spec());
        JobSpending.Admitted.Go go;
        switch (spending.admit(claimed, name, attemptId, expected, clock.instant())) {
            case JobSpending.Admitted.Skip skip -> {
                store.noteSkipped(claimed.lease(), name, skip.reason(), actor, clock.instant());
                return new Step.Next(skip.reason());
            }
            case JobSpending.Admitted.Block block -> {
                finish(claimed, block.failure());
                return new Step.Done();
            }
            case JobSpending.Admitted.Go admitted -> go = admitted;
        }
        AheadResult ahead = store.writeAhead(
                claimed.lease(),
                new AttemptDraft(attemptId, name, vendorModel, job.round(), expected),
                clock.instant());
        switch (ahead) {
            case LEASE_LOST -> {
                spending.release(go, attemptId);
                return new Step.Done();
            }
            case ALREADY_ATTEMPTED -> {
                spending.release(go, attemptId);
                return new Step.Next("already_attempted", true);
            }
            case WRITTEN -> {
                // the attempt row now carries the hold: a crash from here is settled from it
            }
        }
        long started = ticks.read();
        Outcome outcome = call(provider, callFor(job, name, vendorModel, attemptId));
        Duration latency = ticks.since(started);
        gate.report(name, outcome, latency, go.probe());
        Step step = settle(claimed, new Settling(attemptId, name, expected), outcome, latency);
        spending.settle(go, attemptId, outcome.billable(), AuditedCost.of(outcome, expected));
        return step;
    }

    /** An attempt written ahead and called: what its settlement needs besides the outcome. */
    private record Settling(UUID attemptId, String provider, BigDecimal expectedCost) {}

    private GenerationCall callFor(Job job, String name, String vendorModel, UUID attemptId) {
        return new GenerationCall(
                name,
                vendorModel,
                GenerationCall.Request.of(job.spec().generation()),
                callTimeout(job),
                attemptId.toString(),
                Optional.ofNullable(job.spec().simulate().get(name)),
                requestId -> store.markSubmitted(attemptId, requestId),
                callbacks.forAttempt(name, attemptId),
                Optional.of(job.deadline()));
    }

    /** The call's own timeout, cut to what is left of the job's deadline. */
    private Duration callTimeout(Job job) {
        Duration own = Duration.ofSeconds(job.spec().timeoutSeconds());
        Duration left = timeLeft(job);
        return left.compareTo(own) < 0 ? left : own;
    }

    /** Records the outcome and the job's move in one write; the next step follows from the move. */
    private Step settle(ClaimedJob claimed, Settling attempt, Outcome outcome, Duration latency) {
        JobMove move = decide(claimed.job(), outcome);
        Optional<ModerationVerdict> verdict = Optional.empty();
        if (move instanceof JobMove.Succeed && outcome instanceof Outcome.Confirmed confirmed) {
            move = keepAssets(attempt.attemptId(), confirmed);
            if (move instanceof JobMove.Succeed kept) {
                verdict = moderation.check(claimed.job(), kept.assets());
                move = verdict.map(v -> ModeratedResults.move(v, kept)).orElse(move);
            }
        }
        BigDecimal cost = AuditedCost.of(outcome, attempt.expectedCost());
        boolean held = store.settle(
                claimed.lease(),
                new Settlement(
                        attempt.attemptId(), attempt.provider(), outcome, latency.toMillis(), cost, move, verdict),
                actor,
                clock.instant());
        if (!held) {
            log.warn(
                    "lease lost on job {} while settling attempt {}; the outcome stays on the attempt",
                    claimed.job().id(),
                    attempt.attemptId());
            return new Step.Done();
        }
        return switch (move) {
            case JobMove.Continue c -> new Step.Next(outcome.errorClass() + marker(outcome), true);
            case JobMove.Succeed s -> new Step.Done();
            case JobMove.Fail f -> new Step.Done();
            case JobMove.Park p -> new Step.Done();
        };
    }

    /** The audited cost: what the vendor charged, the expected cost while unknown, else nothing. */
    private static String marker(Outcome outcome) {
        return outcome.httpStatus() > 0 ? "(http_" + outcome.httpStatus() + ")" : "";
    }

    private Outcome call(ProviderRegistry.Provider provider, GenerationCall call) {
        try {
            return provider.adapter().generate(call);
        } catch (RuntimeException | Error e) {
            log.error("adapter '{}' failed on attempt {}", call.provider(), call.reference(), e);
            return new Outcome.AdapterFault(e.getClass().getSimpleName(), true);
        }
    }

    /** The one place the outcome classes of DESIGN §3 become job moves. */
    static JobMove decide(Job job, Outcome outcome) {
        return switch (outcome) {
            case Outcome.Confirmed c -> new JobMove.Succeed(List.of());
            case Outcome.Unavailable u -> new JobMove.Continue();
            case Outcome.Rejected r ->
                switch (r.kind()) {
                    case USER_ERROR -> new JobMove.Fail(r.code(), safe(r.message()), RejectionKind.USER_ERROR.wire());
                    case POLICY -> new JobMove.Fail(r.code(), safe(r.message()), RejectionKind.POLICY.wire());
                    case CONFIG ->
                        job.spec().pinned()
                                ? new JobMove.Fail(r.code(), safe(r.message()), RejectionKind.CONFIG.wire())
                                : new JobMove.Continue();
                };
            case Outcome.AdapterFault f -> new JobMove.Fail("adapter_fault", "internal adapter error", "adapter_fault");
            case Outcome.Unconfirmed u -> new JobMove.Park("unconfirmed");
        };
    }

    private static String safe(String message) {
        return message == null ? "" : message;
    }

    /**
     * Keeps the media before the job commits; a storage failure parks rather than drops a paid result
     * (reconcile fetches it again from the vendor). The files spooled for it are deleted then: nothing
     * names them, so they could only fill the temporary directory.
     */
    private JobMove keepAssets(UUID attemptId, Outcome.Confirmed confirmed) {
        try {
            List<StoredAsset> saved = assets.save(attemptId, confirmed.result());
            return new JobMove.Succeed(saved);
        } catch (IOException e) {
            log.error("could not store the result of attempt {}", attemptId, e);
            confirmed.result().discard();
            return new JobMove.Park("result_storage_failed");
        }
    }

    private void finish(ClaimedJob claimed, JobMove.Fail failure) {
        store.finish(claimed.lease(), failure, actor, clock.instant());
    }
}
