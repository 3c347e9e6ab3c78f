package io.idem.providers.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Poll pauses double up to the ceiling, with jitter that spreads many jobs' polls apart. */
class PollScheduleTest {
    private static final PollSchedule SCHEDULE = new PollSchedule(Duration.ofMillis(500), Duration.ofSeconds(3));

    @Test
    void eachPauseIsBetweenFourFifthsAndAllOfTwiceThePreviousAndNeverPastTheCeiling() {
        for (int i = 0; i < 1_000; i++) {
            Duration pause = SCHEDULE.after(Duration.ofMillis(800));
            assertThat(pause).isBetween(Duration.ofMillis(1_280), Duration.ofMillis(1_600));
            assertThat(SCHEDULE.after(Duration.ofSeconds(3)))
                    .isBetween(Duration.ofMillis(2_400), Duration.ofSeconds(3));
            assertThat(SCHEDULE.after(Duration.ofMillis(200)))
                    .as("never below the first pause")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(500));
        }
    }

    @Test
    void pausesStartedTogetherDoNotStayInStep() {
        Set<Duration> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            seen.add(SCHEDULE.after(Duration.ofSeconds(1)));
        }
        assertThat(seen).hasSizeGreaterThan(10);
    }
}
