package io.idem.core.engine;

import static io.idem.testkit.JobSpecBuilder.aJobSpec;
import static io.idem.testkit.Outcomes.confirmed;
import static io.idem.testkit.Outcomes.confirmedClip;
import static io.idem.testkit.Outcomes.rejected;
import static io.idem.testkit.Outcomes.unavailable;
import static io.idem.testkit.Outcomes.unconfirmed;
import static io.idem.testkit.ProviderBuilder.aProvider;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.idem.core.breaker.BreakerSettings;
import io.idem.core.breaker.BreakerState;
import io.idem.core.breaker.CircuitBreakers;
import io.idem.core.budget.ProviderBudgets;
import io.idem.core.domain.Attempt;
import io.idem.core.domain.AttemptStatus;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.JobState;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.CallbackAddress;
import io.idem.core.spi.ClaimedJob;
import io.idem.testkit.InMemoryAssetStore;
import io.idem.testkit.InMemoryBreakerStore;
import io.idem.testkit.InMemoryJobQueueStore;
import io.idem.testkit.InMemorySpendStore;
import io.idem.testkit.ManualClock;
import io.idem.testkit.ProviderBuilder;
import io.idem.testkit.ScriptedAdapter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job's way through its candidates (DESIGN §4), on the in-memory store, scripted vendors and a manual clock. */
class JobRunTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private final ManualClock clock = new ManualClock();
    private final InMemoryJobQueueStore store = new InMemoryJobQueueStore();
    private final InMemorySpendStore spend = new InMemorySpendStore();
    private final InMemoryAssetStore assets = new InMemoryAssetStore();
    private final CircuitBreakers breakers =
            new CircuitBreakers(new InMemoryBreakerStore(), BreakerSettings.DEFAULTS, clock, "node-a");
    private final ScriptedAdapter primary = new ScriptedAdapter();
    private final ScriptedAdapter backup = new ScriptedAdapter();
    private boolean stopping;

    private Job run(JobSpec spec, ProviderBuilder... providers) {
        ClaimedJob claimed = claim(spec);
        runner(providers).run(claimed);
        return store.find(claimed.job().id()).orElseThrow();
    }

    private ClaimedJob claim(JobSpec spec) {
        store.accept("alice", spec, clock.instant());
        return store.claim("a", 1, clock.instant(), LEASE).getFirst();
    }

    private JobRun runner(ProviderBuilder... providers) {
        ProviderRegistry registry = ProviderBuilder.registryOf(providers);
        Map<String, BigDecimal> budgets = new HashMap<>();
        registry.all().forEach((name, p) -> p.settings().dailyBudgetUsd().ifPresent(b -> budgets.put(name, b)));
        var gate = new ProviderGate(breakers, new ProviderBudgets(spend, budgets, clock, clock));
        return new JobRun(
                store, registry, assets, clock, clock, "worker:a", () -> stopping, CallbackAddress.NONE, gate);
    }

    private Job runOnBoth() {
        return run(aJobSpec().build(), aProvider("primary", primary), aProvider("backup", backup));
    }

    private List<String> events(Job job) {
        return store.events(job.id()).stream().map(e -> e.type().wire()).toList();
    }

    @Test
    void anUnavailablePrimaryFailsOverToTheBackupWithOneAttemptEach() {
        primary.then(unavailable());
        backup.then(confirmed());

        Job job = runOnBoth();

        assertThat(job.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(job.result().orElseThrow().provider()).isEqualTo("backup");
        assertThat(job.attempts())
                .extracting(Attempt::provider, Attempt::status)
                .containsExactly(tuple("primary", AttemptStatus.FAILED), tuple("backup", AttemptStatus.SUCCEEDED));
        assertThat(primary.callCount() + backup.callCount()).isEqualTo(2);
        assertThat(events(job)).contains("attempt.failed_over", "job.succeeded");
    }

    @Test
    void aQuotaAnswerClosesTheProviderSoLaterJobsNeverCallIt() {
        primary.thenAlways(io.idem.core.outcome.Outcome.Rejected.unusable(
                "insufficient_quota", "You exceeded your current quota", 429, "req_q"));
        backup.thenAlways(confirmed());

        for (int i = 0; i < 6; i++) {
            assertThat(runOnBoth().state()).isEqualTo(JobState.SUCCEEDED);
        }

        assertThat(primary.callCount())
                .as("one vendor call, then the provider is skipped")
                .isEqualTo(1);
        assertThat(breakers.snapshot("primary").state()).isEqualTo(BreakerState.OPEN);
        assertThat(breakers.snapshot("primary").openUntil())
                .contains(clock.instant().plus(BreakerSettings.DEFAULTS.unusableFor()));
    }

    @Test
    void anUnconfirmedCallParksTheJobAndNoOtherProviderIsCalled() {
        primary.thenSubmitted("req_9", unconfirmed());

        Job job = runOnBoth();

        assertThat(job.state()).isEqualTo(JobState.MANUAL_REVIEW);
        assertThat(job.attempts().getFirst().providerRequestId()).contains("req_9");
        assertThat(backup.callCount()).isZero();
    }

    @Test
    void aPolicyRefusalFailsTheJobWithoutAskingAnotherProvider() {
        primary.then(rejected(RejectionKind.POLICY));

        Job job = runOnBoth();

        assertThat(job.state()).isEqualTo(JobState.FAILED);
        assertThat(job.error().orElseThrow().errorClass()).isEqualTo("policy");
        assertThat(backup.callCount()).isZero();
    }

    @Test
    void whenEveryCandidateIsUnavailableTheJobFailsNamingEach() {
        primary.then(unavailable());
        backup.then(unavailable());

        Job job = runOnBoth();

        assertThat(job.error().orElseThrow())
                .isEqualTo(new Job.JobError(
                        "providers_exhausted",
                        "no candidate could serve this job: primary=unavailable(http_503), backup=unavailable(http_503)",
                        "unavailable"));
    }

    @Test
    void aWorkerWhoseLeaseWasSweptMakesNoCall() {
        ClaimedJob claimed = claim(aJobSpec().build());
        clock.advance(LEASE.plusSeconds(1));
        store.sweepExpiredLeases(clock.instant(), 10);

        runner(aProvider("primary", primary), aProvider("backup", backup)).run(claimed);

        assertThat(primary.callCount() + backup.callCount()).isZero();
        assertThat(store.find(claimed.job().id()).orElseThrow().state()).isEqualTo(JobState.QUEUED);
    }

    @Test
    void aWorkerShuttingDownHandsTheJobBackInsteadOfCalling() {
        stopping = true;
        Job job = runOnBoth();
        assertThat(job.state()).isEqualTo(JobState.QUEUED);
        assertThat(primary.callCount()).isZero();
    }

    @Test
    void aCallsLatencyIsMeasuredOnTheInjectedTicker() {
        primary.then(confirmed(), clock, Duration.ofMillis(1500));
        Job job = runOnBoth();
        assertThat(job.attempts().getFirst().latencyMs()).contains(1500L);
    }

    @Test
    void slowCallsMeasuredByTheEngineOpenTheBreakerAndLaterJobsSkipTheProvider() {
        int minSamples = BreakerSettings.DEFAULTS.latencyMinSamples();
        for (int i = 0; i < minSamples; i++) {
            primary.then(confirmed(), clock, Duration.ofSeconds(6)); // over the 5 s p95 threshold
            runOnBoth();
        }
        assertThat(breakers.snapshot("primary").state()).isEqualTo(BreakerState.OPEN);

        backup.then(confirmed());
        Job next = runOnBoth();

        assertThat(next.result().orElseThrow().provider()).isEqualTo("backup");
        assertThat(primary.callCount()).isEqualTo(minSamples);
        assertThat(events(next)).contains("candidate.skipped");
    }

    @Test
    void aProviderAtItsDailyBudgetIsSkipped() {
        spend.spent("primary", new BigDecimal("1.00"));
        backup.then(confirmed());

        Job job =
                run(aJobSpec().build(), aProvider("primary", primary).dailyBudget("1.00"), aProvider("backup", backup));

        assertThat(job.result().orElseThrow().provider()).isEqualTo("backup");
        assertThat(primary.callCount()).isZero();
    }

    @Test
    void aCandidateWhoseExpectedCostWouldPassItsBudgetIsSkippedBeforeTheBudgetIsReached() {
        spend.spent("primary", new BigDecimal("0.97"));
        backup.then(confirmed());

        Job job =
                run(aJobSpec().build(), aProvider("primary", primary).dailyBudget("1.00"), aProvider("backup", backup));

        assertThat(job.result().orElseThrow().provider()).isEqualTo("backup");
        assertThat(primary.callCount()).isZero();
        assertThat(events(job)).contains("candidate.skipped");
    }

    @Test
    void anUnbilledFailureReleasesItsHoldAndABilledCallCountsItsCost() {
        primary.then(unavailable());
        backup.then(confirmed());

        run(
                aJobSpec().build(),
                aProvider("primary", primary).dailyBudget("1.00"),
                aProvider("backup", backup).dailyBudget("1.00"));

        var day = clock.instant().atZone(java.time.ZoneOffset.UTC).toLocalDate();
        assertThat(spend.providerSpend("primary", day).settledUsd()).isEqualByComparingTo("0");
        assertThat(spend.providerSpend("primary", day).heldUsd()).isEqualByComparingTo("0");
        assertThat(spend.providerSpend("backup", day).settledUsd()).isEqualByComparingTo("0.04");
        assertThat(spend.providerSpend("backup", day).heldUsd()).isEqualByComparingTo("0");
        assertThat(spend.announced()).isEmpty();
    }

    /**
     * A key's budget is asked before the call, unless the claim found the job's key without budgets
     * less than {@link JobSpending#KEY_READING_STANDS} ago: then no hold is taken (no round trip).
     */
    @Test
    void aKeyBudgetIsAskedUnlessTheClaimFoundTheKeyWithoutOneMomentsAgo() {
        UUID key = UUID.randomUUID();
        spend.keyBudgets(key, new BigDecimal("0.01"), null);
        primary.thenAlways(confirmed());

        Job budgeted = runClaimed(claimOfKey(key, true, clock.instant()));
        Job oldReading = runClaimed(claimOfKey(key, false, clock.instant().minus(JobSpending.KEY_READING_STANDS)));
        Job freshReading = runClaimed(claimOfKey(key, false, clock.instant().minusSeconds(4)));

        assertThat(budgeted.state()).isEqualTo(JobState.FAILED);
        assertThat(budgeted.error().orElseThrow().errorClass()).isEqualTo("budget");
        assertThat(oldReading.state()).isEqualTo(JobState.FAILED);
        assertThat(oldReading.error().orElseThrow().errorClass()).isEqualTo("budget");
        assertThat(freshReading.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(primary.callCount()).isEqualTo(1);
    }

    @Test
    void aCappedProviderIsAlwaysHeldEvenWhenTheClaimFoundTheKeyWithoutBudgets() {
        spend.spent("primary", new BigDecimal("0.99"));
        backup.then(confirmed());

        ClaimedJob claimed = claimOfKey(UUID.randomUUID(), false, clock.instant());
        runner(aProvider("primary", primary).dailyBudget("1.00"), aProvider("backup", backup))
                .run(claimed);
        Job job = store.find(claimed.job().id()).orElseThrow();

        assertThat(job.result().orElseThrow().provider()).isEqualTo("backup");
        assertThat(primary.callCount()).isZero();
    }

    /** A claim of a new job of {@code key}, as a store would report it: the key's budgets read at {@code at}. */
    private ClaimedJob claimOfKey(UUID key, boolean keyBudgeted, java.time.Instant at) {
        ClaimedJob claimed = claim(aJobSpec().build());
        spend.jobKey(claimed.job().id(), key);
        return new ClaimedJob(claimed.job(), claimed.lease(), claimed.attemptedThisRound(), keyBudgeted, at);
    }

    private Job runClaimed(ClaimedJob claimed) {
        runner(aProvider("primary", primary)).run(claimed);
        return store.find(claimed.job().id()).orElseThrow();
    }

    @Test
    void anUnbilledAttemptDoesNotCountAgainstTheJobsCostCeiling() {
        primary.then(unavailable());
        backup.then(confirmed());

        Job job = run(
                aJobSpec().maxCost("0.04").build(),
                aProvider("primary", primary).costPerImage("0.04"),
                aProvider("backup", backup).costPerImage("0.04"));

        assertThat(job.result().orElseThrow().provider()).isEqualTo("backup");
    }

    @Test
    void aJobWhoseFirstCandidateCostsMoreThanItsCeilingTriesTheCheaperOne() {
        backup.then(confirmed());

        Job job = run(
                aJobSpec().maxCost("0.03").build(),
                aProvider("primary", primary).costPerImage("0.04"),
                aProvider("backup", backup).costPerImage("0.02"));

        assertThat(job.result().orElseThrow().provider()).isEqualTo("backup");
        assertThat(primary.callCount()).isZero();
        assertThat(events(job)).contains("candidate.skipped");
    }

    @Test
    void aPinnedJobOnADisabledProviderFailsAtOnce() {
        Job job = run(
                aJobSpec().pinnedTo("primary").build(),
                aProvider("primary", primary).disabled());
        assertThat(job.error().orElseThrow().code()).isEqualTo("provider_disabled");
        assertThat(primary.callCount()).isZero();
    }

    @Test
    void aPaidResultThatCannotBeStoredParksTheJobRatherThanDropIt() {
        assets.failing();
        primary.then(confirmed());

        Job job = runOnBoth();

        assertThat(job.state()).isEqualTo(JobState.MANUAL_REVIEW);
        assertThat(job.review().orElseThrow().reason()).isEqualTo("result_storage_failed");
        assertThat(job.attempts().getFirst().status()).isEqualTo(AttemptStatus.SUCCEEDED);
        assertThat(backup.callCount()).isZero();
        assertThat(UUID.fromString(primary.calls().getFirst().reference()))
                .isEqualTo(job.attempts().getFirst().id());
    }

    @Test
    void aPaidClipThatCannotBeStoredLeavesNoSpoolFileBehind(@TempDir Path dir) throws Exception {
        Path spooled = Files.write(dir.resolve("idem-media-1.part"), new byte[] {0, 0, 0, 24});
        assets.failing();
        primary.then(confirmedClip(spooled));

        Job job = runOnBoth();

        assertThat(job.review().orElseThrow().reason()).isEqualTo("result_storage_failed");
        assertThat(spooled).doesNotExist();
    }
}
