package io.idem.core.engine;

import static io.idem.testkit.JobSpecBuilder.aJobSpec;
import static io.idem.testkit.Outcomes.confirmed;
import static io.idem.testkit.Outcomes.rateLimited;
import static io.idem.testkit.Outcomes.unavailable;
import static io.idem.testkit.ProviderBuilder.aProvider;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.breaker.BreakerSettings;
import io.idem.core.breaker.BreakerState;
import io.idem.core.breaker.CircuitBreakers;
import io.idem.core.budget.ProviderBudgets;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.JobState;
import io.idem.core.spi.CallbackAddress;
import io.idem.core.spi.ClaimedJob;
import io.idem.testkit.InMemoryAssetStore;
import io.idem.testkit.InMemoryBreakerStore;
import io.idem.testkit.InMemoryJobQueueStore;
import io.idem.testkit.InMemorySpendStore;
import io.idem.testkit.ManualClock;
import io.idem.testkit.ScriptedAdapter;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * When a job waits instead of failing (DESIGN §4, deferral): only when no call is at risk and a
 * candidate is closed for a while, until the earliest reopening, and never past the job's deadline,
 * which also cuts every call's timeout. In memory, on a manual clock.
 */
class JobDeferralTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration COOLDOWN = BreakerSettings.DEFAULTS.cooldown();
    private final ManualClock clock = new ManualClock();
    private final InMemoryJobQueueStore store = new InMemoryJobQueueStore();
    private final InMemoryBreakerStore shared = new InMemoryBreakerStore();
    private final InMemorySpendStore spend = new InMemorySpendStore();
    private final ScriptedAdapter primary = new ScriptedAdapter();
    private final ScriptedAdapter backup = new ScriptedAdapter();
    private CircuitBreakers breakers = new CircuitBreakers(shared, BreakerSettings.DEFAULTS, clock, "node-a");
    private DeferralSettings deferral = DeferralSettings.DEFAULTS;

    private UUID submit(JobSpec spec) {
        return store.accept("alice", spec, clock.instant());
    }

    /** One worker pass over whatever is due now. */
    private void work() {
        var registry = io.idem.testkit.ProviderBuilder.registryOf(
                aProvider("primary", primary).dailyBudget("1.00"), aProvider("backup", backup));
        var budgets = new ProviderBudgets(spend, Map.of("primary", new BigDecimal("1.00")), clock, clock);
        var run = new JobRun(
                store,
                registry,
                new InMemoryAssetStore(),
                clock,
                clock,
                "worker:a",
                () -> false,
                CallbackAddress.NONE,
                new ProviderGate(breakers, budgets),
                deferral,
                io.idem.core.moderation.ModerationPolicy.NONE);
        for (ClaimedJob claimed : store.claim("a", 10, clock.instant(), LEASE)) {
            run.run(claimed);
        }
    }

    private Job job(UUID id) {
        return store.find(id).orElseThrow();
    }

    private List<String> events(UUID id) {
        return store.events(id).stream().map(e -> e.type().wire()).toList();
    }

    private void open(String provider, Duration cooldown) {
        shared.open(provider, clock.instant().plus(cooldown), "test", "node-b", clock.instant());
        breakers.refresh(provider);
    }

    @Test
    void aJobWhoseCandidatesAreAllOpenWaitsForTheEarliestCooldownWithoutACall() {
        open("primary", COOLDOWN);
        open("backup", COOLDOWN.multipliedBy(2));
        UUID id = submit(aJobSpec().build());

        work();

        Job waiting = job(id);
        assertThat(waiting.state()).isEqualTo(JobState.QUEUED);
        assertThat(waiting.times().notBefore()).contains(clock.instant().plus(COOLDOWN));
        assertThat(waiting.attempts()).isEmpty();
        assertThat(waiting.round()).isEqualTo(1);
        assertThat(primary.callCount() + backup.callCount()).isZero();
        assertThat(events(id)).containsSubsequence("job.claimed", "job.deferred");
    }

    @Test
    void theDeferredJobIsNotTakenBeforeTheCooldownAndSucceedsAfterIt() {
        open("primary", COOLDOWN);
        open("backup", COOLDOWN);
        UUID id = submit(aJobSpec().build());
        work();

        clock.advance(COOLDOWN.minusMillis(1));
        work();
        assertThat(events(id)).containsOnlyOnce("job.claimed");

        clock.advance(Duration.ofMillis(1));
        primary.then(confirmed());
        work();
        assertThat(job(id).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(job(id).attempts()).hasSize(1);
        assertThat(breakers.snapshot("primary").state()).isEqualTo(BreakerState.CLOSED);
    }

    @Test
    void aJobWhoseDeadlinePassesWhileDeferredFailsProvidersExhaustedNamingEachReason() {
        open("primary", COOLDOWN);
        open("backup", COOLDOWN);
        UUID id = submit(aJobSpec().deadlineSeconds(30).build());
        Instant deadline = clock.instant().plusSeconds(30);

        work();
        assertThat(job(id).times().notBefore()).contains(deadline);

        clock.set(deadline);
        work();

        Job failed = job(id);
        assertThat(failed.state()).isEqualTo(JobState.FAILED);
        assertThat(failed.error().orElseThrow().code()).isEqualTo("providers_exhausted");
        assertThat(failed.error().orElseThrow().message())
                .startsWith("no candidate could serve this job: primary=breaker_open, backup=breaker_open")
                .contains("deadline");
        assertThat(primary.callCount() + backup.callCount()).isZero();
    }

    @ParameterizedTest(name = "primary {0}, backup {1} -> {2}")
    @CsvSource({
        "open,        ok,          SUCCEEDED",
        "open,        unavailable, QUEUED",
        "unavailable, open,        QUEUED",
        "unavailable, unavailable, FAILED",
        "ok,          open,        SUCCEEDED",
    })
    void onlyAJobWithACandidateClosedForAWhileAndNoneLeftToTryWaits(String first, String second, JobState end) {
        script("primary", primary, first);
        script("backup", backup, second);
        UUID id = submit(aJobSpec().build());

        work();

        assertThat(job(id).state()).isEqualTo(end);
    }

    private void script(String name, ScriptedAdapter adapter, String mode) {
        switch (mode) {
            case "open" -> open(name, COOLDOWN);
            case "ok" -> adapter.then(confirmed());
            case "unavailable" -> adapter.then(unavailable());
            default -> throw new IllegalArgumentException(mode);
        }
    }

    /** Breakers that open at the first failure. */
    private CircuitBreakers touchy() {
        return new CircuitBreakers(
                shared,
                new BreakerSettings(
                        1, Duration.ofSeconds(5), Duration.ofMinutes(2), 20, COOLDOWN, COOLDOWN, Duration.ofMinutes(2)),
                clock,
                "node-a");
    }

    @Test
    void aCallThatOpensItsBreakerIsWaitedForAndCalledAgainInANewRound() {
        breakers = touchy();
        UUID id = submit(aJobSpec().pinnedTo("primary").build());
        primary.then(unavailable());

        work();
        assertThat(job(id).state()).isEqualTo(JobState.QUEUED);

        clock.advance(COOLDOWN);
        primary.then(confirmed());
        work();
        assertThat(job(id).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(job(id).round()).isEqualTo(2);
        assertThat(job(id).attempts()).extracting(a -> a.round()).containsExactly(1, 2);
    }

    @Test
    void aRateLimitedAnswerClosesTheProviderForItsRetryAfterWithoutOpeningTheBreaker() {
        breakers = touchy(); // a rate limit is not a failure, even where one failure would open it
        UUID id = submit(aJobSpec().pinnedTo("primary").build());
        primary.then(rateLimited(Duration.ofSeconds(20)));

        work();

        assertThat(breakers.snapshot("primary").state()).isEqualTo(BreakerState.CLOSED);
        assertThat(breakers.snapshot("primary").rateLimitedUntil())
                .contains(clock.instant().plusSeconds(20));
        assertThat(job(id).times().notBefore()).contains(clock.instant().plusSeconds(20));
        assertThat(breakers.tryAcquirePermission("primary"))
                .isEqualTo(new io.idem.core.breaker.Admission.Denied("rate_limited"));

        clock.advance(Duration.ofSeconds(20));
        primary.then(confirmed());
        work();
        assertThat(job(id).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(primary.callCount()).isEqualTo(2);
    }

    @Test
    void anAbsurdRetryAfterClosesTheProviderForAnHourAtMost() {
        submit(aJobSpec().build());
        primary.then(rateLimited(Duration.ofDays(3)));
        backup.then(confirmed());

        work();

        assertThat(breakers.snapshot("primary").rateLimitedUntil())
                .contains(clock.instant().plus(CircuitBreakers.MAX_RATE_LIMIT));
    }

    @Test
    void aSpentBudgetIsPassedOverUnlessConfiguredToWaitForTheNextUtcDay() {
        spend.spent("primary", new BigDecimal("1.00"));
        UUID skipped = submit(aJobSpec().pinnedTo("primary").build());
        work();
        assertThat(job(skipped).state()).isEqualTo(JobState.FAILED);

        deferral = new DeferralSettings(Duration.ofHours(20), Duration.ofHours(24), true);
        UUID waits =
                submit(aJobSpec().pinnedTo("primary").deadlineSeconds(72_000).build());
        work();
        assertThat(job(waits).state()).isEqualTo(JobState.QUEUED);
        assertThat(job(waits).times().notBefore()).contains(Instant.parse("2026-12-02T00:00:00Z"));
    }

    @Test
    void aHalfOpenBreakerWhoseProbeIsOutIsLookedAtAgainSoon() {
        open("primary", COOLDOWN);
        clock.advance(COOLDOWN);
        shared.takeProbe("primary", clock.instant().plus(Duration.ofMinutes(2)), "node-b", clock.instant());
        breakers.refresh("primary");
        UUID id = submit(aJobSpec().pinnedTo("primary").build());

        work();

        assertThat(job(id).times().notBefore()).contains(clock.instant().plus(Reopenings.HALF_OPEN_RECHECK));
    }

    @Test
    void aCandidateDeniedAMomentAgoThatIsOpenAgainIsTriedSoonRatherThanFailed() {
        open("primary", COOLDOWN);
        clock.advance(COOLDOWN);
        // another node's probe ran and closed the breaker; this node's cache still says open, so its
        // own try for the probe loses and it hears the breaker is closed only afterwards
        shared.takeProbe("primary", clock.instant().plus(Duration.ofMinutes(2)), "node-b", clock.instant());
        shared.close("primary", "node-b", clock.instant());
        UUID id = submit(aJobSpec().pinnedTo("primary").build());

        work();

        assertThat(primary.callCount()).isZero();
        assertThat(job(id).state()).isEqualTo(JobState.QUEUED);
        assertThat(job(id).times().notBefore()).contains(clock.instant().plus(CandidatePass.FLOOR));
    }

    @Test
    void aCallsTimeoutIsCutToWhatIsLeftOfTheDeadline() {
        UUID id = submit(aJobSpec().timeoutSeconds(60).deadlineSeconds(30).build());
        clock.advance(Duration.ofSeconds(25));
        primary.then(confirmed());

        work();

        assertThat(job(id).state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(primary.calls().getFirst().timeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aCallCarriesTheJobsOwnDeadlineForVendorsThatTakeOne() {
        UUID id = submit(aJobSpec().timeoutSeconds(10).deadlineSeconds(600).build());
        primary.then(confirmed());

        work();

        assertThat(primary.calls().getFirst().timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(primary.calls().getFirst().deadline()).contains(job(id).deadline());
    }

    @Test
    void aJobPastItsDeadlineMakesNoCall() {
        UUID id = submit(aJobSpec().deadlineSeconds(30).build());
        clock.advance(Duration.ofSeconds(30));

        work();

        assertThat(job(id).state()).isEqualTo(JobState.FAILED);
        assertThat(job(id).error().orElseThrow().message())
                .isEqualTo("no candidate could serve this job: primary=deadline_passed, backup=deadline_passed"
                        + " (the job's deadline, " + clock.instant() + ", leaves no time for a call)");
        assertThat(primary.callCount() + backup.callCount()).isZero();
    }
}
