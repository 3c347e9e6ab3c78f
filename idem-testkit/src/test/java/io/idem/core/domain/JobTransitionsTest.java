package io.idem.core.domain;

import static io.idem.core.domain.JobState.CANCELED;
import static io.idem.core.domain.JobState.FAILED;
import static io.idem.core.domain.JobState.MANUAL_REVIEW;
import static io.idem.core.domain.JobState.QUEUED;
import static io.idem.core.domain.JobState.RUNNING;
import static io.idem.core.domain.JobState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The job state whitelist, pair by pair: every one of the 36 moves is either listed here or refused. */
class JobTransitionsTest {
    /** DESIGN §4, written out independently of the code under test. */
    private static final Map<JobState, Set<JobState>> DESIGN = Map.of(
            QUEUED, EnumSet.of(RUNNING, CANCELED),
            RUNNING, EnumSet.of(SUCCEEDED, FAILED, MANUAL_REVIEW, CANCELED, QUEUED),
            MANUAL_REVIEW, EnumSet.of(SUCCEEDED, QUEUED, FAILED),
            SUCCEEDED, EnumSet.noneOf(JobState.class),
            FAILED, EnumSet.noneOf(JobState.class),
            CANCELED, EnumSet.noneOf(JobState.class));

    static Stream<Arguments> everyPair() {
        return Arrays.stream(JobState.values())
                .flatMap(from -> Arrays.stream(JobState.values())
                        .map(to -> Arguments.of(from, to, DESIGN.get(from).contains(to))));
    }

    @ParameterizedTest(name = "{0} -> {1}: legal {2}")
    @MethodSource("everyPair")
    void onlyTheMovesDesignListsAreLegal(JobState from, JobState to, boolean legal) {
        assertThat(JobTransitions.isLegal(from, to)).isEqualTo(legal);
        if (legal) {
            assertThatCode(() -> JobTransitions.check(from, to)).doesNotThrowAnyException();
        } else {
            assertThatThrownBy(() -> JobTransitions.check(from, to))
                    .isInstanceOf(JobTransitions.IllegalTransitionException.class)
                    .hasMessage("illegal job transition " + from.wire() + " -> " + to.wire());
        }
    }

    @ParameterizedTest
    @EnumSource(JobState.class)
    void theSourcesOfAStateAreExactlyTheStatesThatMayMoveToIt(JobState to) {
        Set<JobState> expected = EnumSet.noneOf(JobState.class);
        DESIGN.forEach((from, targets) -> {
            if (targets.contains(to)) {
                expected.add(from);
            }
        });
        assertThat(JobTransitions.sourcesOf(to)).isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(JobState.class)
    void aTerminalStateHasNoWayOut(JobState from) {
        assertThat(DESIGN.get(from).isEmpty()).isEqualTo(from.isTerminal());
        assertThat(Arrays.stream(JobState.values()).noneMatch(to -> JobTransitions.isLegal(from, to)))
                .isEqualTo(from.isTerminal());
    }
}
