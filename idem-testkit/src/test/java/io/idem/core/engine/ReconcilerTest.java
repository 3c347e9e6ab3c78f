package io.idem.core.engine;

import static io.idem.testkit.AttemptBuilder.anAttempt;
import static io.idem.testkit.JobBuilder.aParkedJob;
import static io.idem.testkit.Outcomes.confirmed;
import static io.idem.testkit.Outcomes.confirmedClip;
import static io.idem.testkit.ProviderBuilder.aProvider;
import static io.idem.testkit.ProviderBuilder.registryOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.AttemptStatus;
import io.idem.core.domain.Job;
import io.idem.core.engine.Reconciler.Verdict;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.core.spi.ReviewCase;
import io.idem.testkit.InMemoryAssetStore;
import io.idem.testkit.ManualClock;
import io.idem.testkit.ScriptedAdapter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a reconcile check does with each answer (DESIGN §4 "Reconcile and review"). The job's
 * timeout is 3 s, so a vendor's "never ran it" is trusted only 8 s (timeout plus 5 s grace) after
 * the call started.
 */
class ReconcilerTest {
    private static final Duration MAX_AGE = Duration.ofHours(1);
    private final ManualClock clock = new ManualClock();
    private final ScriptedAdapter vendor = new ScriptedAdapter();
    private final RecordingReviewStore store = new RecordingReviewStore();
    private final InMemoryAssetStore assets = new InMemoryAssetStore();
    private final AtomicInteger requeued = new AtomicInteger();

    private Reconciler reconciler(ProviderAdapter adapter) {
        return new Reconciler(
                store,
                registryOf(aProvider("primary", adapter)),
                assets,
                clock,
                Duration.ofMinutes(1),
                MAX_AGE,
                requeued::incrementAndGet);
    }

    /** A job parked now whose call to primary (in {@code status}) started now. */
    private Job parked(AttemptStatus status) {
        Job job = aParkedJob("unconfirmed", clock.instant())
                .withAttempt(anAttempt().status(status).requestId("req_1").startedAt(clock.instant()))
                .build();
        store.holding(new ReviewCase(job, UUID.randomUUID()));
        return job;
    }

    private Verdict check(Job job) {
        return reconciler(vendor).reconcileNow(job.id(), "operator:bob");
    }

    static Stream<Arguments> answers() {
        var rejected = new ReconcileAnswer.Rejected(RejectionKind.POLICY, "policy", "refused");
        return Stream.of(
                Arguments.of(new ReconcileAnswer.Delivered(confirmed()), 1, Verdict.PROMOTED, "promote(delivered)"),
                Arguments.of(
                        new ReconcileAnswer.NotBilled("no such job"),
                        9,
                        Verdict.CONTINUED,
                        "closeUndelivered(billed=false)"),
                Arguments.of(new ReconcileAnswer.NotBilled("no such job"), 8, Verdict.UNCHANGED, "letGo"),
                Arguments.of(
                        new ReconcileAnswer.Failed("gpu error", true),
                        9,
                        Verdict.CONTINUED,
                        "closeUndelivered(billed=true)"),
                Arguments.of(new ReconcileAnswer.Failed("gpu error", false), 2, Verdict.UNCHANGED, "letGo"),
                Arguments.of(rejected, 1, Verdict.FAILED, "failRejected(policy)"),
                Arguments.of(new ReconcileAnswer.StillUnknown("running"), 60, Verdict.UNCHANGED, "letGo"),
                Arguments.of(new ReconcileAnswer.Unsupported("no lookup"), 60, Verdict.UNCHANGED, "letGo"));
    }

    @ParameterizedTest(name = "{0} after {1} s -> {2} ({3})")
    @MethodSource("answers")
    void eachAnswerLeadsToOneVerdict(ReconcileAnswer answer, int secondsAfterStart, Verdict verdict, String move) {
        Job job = parked(AttemptStatus.UNCONFIRMED);
        vendor.onReconcile(answer);
        clock.advance(Duration.ofSeconds(secondsAfterStart));

        assertThat(check(job)).isEqualTo(verdict);
        assertThat(store.calls()).containsExactly(move);
        assertThat(vendor.asked()).extracting(AttemptRef::providerRequestId).containsExactly(Optional.of("req_1"));
        assertThat(requeued.get()).isEqualTo(verdict == Verdict.CONTINUED ? 1 : 0);
    }

    /** A reconciler whose sweep leaves these providers' parked jobs to an operator (the demo's: both). */
    private Reconciler leaving(String... reviewOnly) {
        return new Reconciler(
                store,
                registryOf(aProvider("primary", vendor)),
                assets,
                clock,
                new Reconciler.Timing(Duration.ofMinutes(1), MAX_AGE),
                requeued::incrementAndGet,
                java.util.Set.of(reviewOnly),
                io.idem.core.moderation.ModerationPolicy.NONE);
    }

    @ParameterizedTest(name = "sweeps {0} s after parking leave it alone")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 60, 3600, 3601})
    void theSweepLeavesAReviewOnlyProvidersJobToAnOperatorHoweverOftenItRuns(int secondsLater) {
        parked(AttemptStatus.UNCONFIRMED);
        vendor.onReconcile(new ReconcileAnswer.Delivered(confirmed()));
        Reconciler reconciler = leaving("primary");
        clock.advance(Duration.ofSeconds(secondsLater));
        for (int sweep = 0; sweep < 5; sweep++) {
            assertThat(reconciler.sweepOnce()).isZero();
        }
        assertThat(reconciler.sweeps()).isEqualTo(5);
        assertThat(store.calls()).as("not held, not asked, not expired").isEmpty();
        assertThat(vendor.asked()).isEmpty();
    }

    @Test
    void anOperatorStillReconcilesAReviewOnlyProvidersJob() {
        Job job = parked(AttemptStatus.UNCONFIRMED);
        vendor.onReconcile(new ReconcileAnswer.Delivered(confirmed()));
        assertThat(leaving("primary").reconcileNow(job.id(), "operator:bob")).isEqualTo(Verdict.PROMOTED);
        assertThat(store.calls()).containsExactly("promote(delivered)");
    }

    @Test
    void theSweepStillAsksAboutEveryOtherProvidersJob() {
        parked(AttemptStatus.UNCONFIRMED);
        vendor.onReconcile(new ReconcileAnswer.Delivered(confirmed()));
        assertThat(leaving("backup").sweepOnce()).isEqualTo(1);
        assertThat(store.calls()).containsExactly("promote(delivered)");
    }

    @Test
    void aLateResultAlreadyOnTheAttemptIsPromotedWithoutAskingTheVendor() {
        Job job = parked(AttemptStatus.SUCCEEDED);
        assertThat(check(job)).isEqualTo(Verdict.PROMOTED);
        assertThat(store.calls()).containsExactly("promote(late result)");
        assertThat(vendor.asked()).isEmpty();
    }

    @Test
    void aJobParkedLongerThanTheMaximumAgeExpiresWithoutAskingTheVendor() {
        Job job = parked(AttemptStatus.UNCONFIRMED);
        clock.advance(MAX_AGE.plusSeconds(1));
        assertThat(check(job)).isEqualTo(Verdict.EXPIRED);
        assertThat(store.calls()).containsExactly("expire");
        assertThat(vendor.asked()).isEmpty();
    }

    @Test
    void aJobAnotherNodeHoldsIsNotChecked() {
        Job job = parked(AttemptStatus.UNCONFIRMED);
        assertThat(reconciler(vendor).reconcileNow(UUID.randomUUID(), "operator:bob"))
                .isEqualTo(Verdict.NOT_HELD);
        assertThat(vendor.asked()).isEmpty();
        assertThat(job.state()).isEqualTo(io.idem.core.domain.JobState.MANUAL_REVIEW);
    }

    @Test
    void aMoveAnotherNodeMadeFirstIsReportedNotHeld() {
        Job job = parked(AttemptStatus.UNCONFIRMED);
        store.refuseMoves();
        vendor.onReconcile(new ReconcileAnswer.Delivered(confirmed()));
        assertThat(check(job)).isEqualTo(Verdict.NOT_HELD);
    }

    @Test
    void aDeliveredResultThatCannotBeStoredStaysInReview() {
        Job job = parked(AttemptStatus.UNCONFIRMED);
        assets.failing();
        vendor.onReconcile(new ReconcileAnswer.Delivered(confirmed()));
        assertThat(check(job)).isEqualTo(Verdict.UNCHANGED);
        assertThat(store.calls()).containsExactly("letGo");
    }

    @Test
    void aDeliveredClipThatCannotBeStoredLeavesNoSpoolFileBehind(@TempDir Path dir) throws Exception {
        Path spooled = Files.write(dir.resolve("idem-media-1.part"), new byte[] {0, 0, 0, 24});
        Job job = parked(AttemptStatus.UNCONFIRMED);
        assets.failing();
        vendor.onReconcile(new ReconcileAnswer.Delivered(confirmedClip(spooled)));

        assertThat(check(job)).isEqualTo(Verdict.UNCHANGED);
        assertThat(spooled).doesNotExist();
    }

    @Test
    void anAdapterThatThrowsLeavesTheJobInReview() {
        Job job = parked(AttemptStatus.UNCONFIRMED);
        ProviderAdapter broken = new ProviderAdapter() {
            @Override
            public Outcome generate(GenerationCall call) {
                throw new AssertionError("reconcile never calls generate");
            }

            @Override
            public ReconcileAnswer reconcile(AttemptRef attempt) {
                throw new IllegalStateException("bug in the adapter");
            }
        };
        assertThat(reconciler(broken).reconcileNow(job.id(), "reconciler")).isEqualTo(Verdict.UNCHANGED);
        assertThat(store.calls()).containsExactly("letGo");
    }

    @Test
    void aSweepChecksTheHeldJobsAndCountsOnlyThoseThatMoved() {
        parked(AttemptStatus.UNCONFIRMED);
        vendor.onReconcile(new ReconcileAnswer.StillUnknown("running"));
        assertThat(reconciler(vendor).sweepOnce()).isZero();
        assertThat(store.calls()).isEqualTo(List.of("letGo"));
    }
}
