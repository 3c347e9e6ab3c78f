package io.idem.core.engine;

import static io.idem.testkit.JobBuilder.aRunningJob;
import static io.idem.testkit.JobSpecBuilder.aJobSpec;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Billable;
import io.idem.core.domain.Job;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.JobMove;
import io.idem.testkit.Outcomes;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code JobRun.decide}: the one place the outcome classes of DESIGN §3 become job moves. */
class JobRunDecideTest {
    private static final Job AUTO = aRunningJob().build();
    private static final Job PINNED =
            aRunningJob().spec(aJobSpec().pinnedTo("primary").build()).build();

    private static Outcome.Rejected rejected(RejectionKind kind) {
        return new Outcome.Rejected(kind, kind.wire() + "_refused", "no", 400, null);
    }

    private static JobMove.Fail failedBy(RejectionKind kind) {
        return new JobMove.Fail(kind.wire() + "_refused", "no", kind.wire());
    }

    static Stream<Arguments> table() {
        var adapterFault = new JobMove.Fail("adapter_fault", "internal adapter error", "adapter_fault");
        return Stream.of(
                Arguments.of("confirmed", Outcomes.confirmed(), AUTO, new JobMove.Succeed(List.of())),
                Arguments.of("confirmed, pinned", Outcomes.confirmed(), PINNED, new JobMove.Succeed(List.of())),
                Arguments.of("unavailable", Outcomes.unavailable(), AUTO, new JobMove.Continue()),
                Arguments.of("unavailable, pinned", Outcomes.unavailable(), PINNED, new JobMove.Continue()),
                Arguments.of(
                        "user error", rejected(RejectionKind.USER_ERROR), AUTO, failedBy(RejectionKind.USER_ERROR)),
                Arguments.of("policy", rejected(RejectionKind.POLICY), AUTO, failedBy(RejectionKind.POLICY)),
                Arguments.of("config, auto", rejected(RejectionKind.CONFIG), AUTO, new JobMove.Continue()),
                Arguments.of("config, pinned", rejected(RejectionKind.CONFIG), PINNED, failedBy(RejectionKind.CONFIG)),
                Arguments.of(
                        "rejection without a message",
                        new Outcome.Rejected(RejectionKind.POLICY, "policy", null, 400, null),
                        AUTO,
                        new JobMove.Fail("policy", "", "policy")),
                Arguments.of("adapter fault, maybe sent", Outcomes.adapterFault(true), AUTO, adapterFault),
                Arguments.of("adapter fault, not sent", Outcomes.adapterFault(false), AUTO, adapterFault),
                Arguments.of("unconfirmed", Outcomes.unconfirmed(), AUTO, new JobMove.Park("unconfirmed")),
                Arguments.of("unconfirmed, pinned", Outcomes.unconfirmed(), PINNED, new JobMove.Park("unconfirmed")));
    }

    @ParameterizedTest(name = "{0} -> {3}")
    @MethodSource("table")
    void everyOutcomeClassBecomesExactlyOneMove(String name, Outcome outcome, Job job, JobMove expected) {
        assertThat(JobRun.decide(job, outcome)).isEqualTo(expected);
    }

    /** DESIGN §1.2: no second call while an earlier one's billing is unknown. */
    @Property
    void onlyAnOutcomeThatBilledNothingMovesOnToAnotherProvider(
            @ForAll("outcomes") Outcome outcome, @ForAll boolean pinned) {
        JobMove move = JobRun.decide(pinned ? PINNED : AUTO, outcome);
        if (move instanceof JobMove.Continue) {
            assertThat(outcome.billable()).isEqualTo(Billable.NO);
        }
        if (outcome.billable() == Billable.UNKNOWN) {
            assertThat(move).isNotInstanceOf(JobMove.Continue.class).isNotInstanceOf(JobMove.Succeed.class);
        }
    }

    @Provide
    Arbitrary<Outcome> outcomes() {
        return Arbitraries.oneOf(
                Arbitraries.just(Outcomes.confirmed()),
                Arbitraries.integers().between(0, 599).map(s -> new Outcome.Unavailable("c", "m", s, null)),
                Arbitraries.of(RejectionKind.class).map(JobRunDecideTest::rejected),
                Arbitraries.of(true, false).map(Outcomes::adapterFault),
                Arbitraries.integers().between(0, 599).map(s -> new Outcome.Unconfirmed("c", "m", s, null)));
    }
}
