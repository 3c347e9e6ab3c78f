package io.idem.core.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When a failed delivery is tried again: doubling pauses up to an hour, stretched, never past the give-up time. */
class RetryScheduleTest {
    private static final RetrySchedule DEFAULTS = new RetrySchedule(Duration.ofSeconds(5), RetrySchedule.LONGEST);
    private static final Instant FAILED = Instant.parse("2026-12-01T10:00:00Z");

    private static Delivery delivery(UUID id, int attempt, Instant giveUpAt) {
        return new Delivery(
                id,
                1,
                "job.succeeded",
                "https://example.com/h",
                "{}",
                new Delivery.Signer.JobCallback(UUID.randomUUID()),
                attempt,
                giveUpAt,
                UUID.randomUUID());
    }

    @ParameterizedTest(name = "after attempt {0} the pause is {1} s")
    @CsvSource({"1, 5", "2, 10", "3, 20", "4, 40", "9, 1280", "10, 2560", "11, 3600", "12, 3600", "500, 3600"})
    void pausesDoubleUpToAnHour(int attempt, long seconds) {
        assertThat(DEFAULTS.pause(attempt)).isEqualTo(Duration.ofSeconds(seconds));
    }

    @Property
    void theNextAttemptComesAfterThePauseAndAtMostAQuarterLater(
            @ForAll @IntRange(min = 1, max = 40) int attempt, @ForAll long bits) {
        Delivery d = delivery(new UUID(bits, ~bits), attempt, FAILED.plus(Duration.ofDays(2)));
        Instant next = DEFAULTS.next(d, FAILED).orElseThrow();
        Duration pause = DEFAULTS.pause(attempt);
        assertThat(Duration.between(FAILED, next)).isBetween(pause, pause.plus(pause.dividedBy(4)));
        assertThat(DEFAULTS.next(d, FAILED)).contains(next);
    }

    @ParameterizedTest(name = "give up {0} s after the failure with a pause of 5 s (+0..25 %) -> retried: {1}")
    @CsvSource({"3600, true", "7, true", "4, false", "0, false"})
    void noAttemptStartsAfterTheGiveUpTime(long giveUpInSeconds, boolean retried) {
        Delivery d = delivery(UUID.randomUUID(), 1, FAILED.plusSeconds(giveUpInSeconds));
        assertThat(DEFAULTS.next(d, FAILED).isPresent()).isEqualTo(retried);
    }

    @Property
    void theDefaultsGiveAboutThirtyAttemptsInADay(@ForAll long bits) {
        UUID id = new UUID(bits, bits >>> 7);
        Instant created = FAILED;
        Instant giveUp = created.plus(Duration.ofHours(24));
        Instant at = created;
        int attempts = 1;
        for (var next = DEFAULTS.next(delivery(id, attempts, giveUp), at);
                next.isPresent();
                next = DEFAULTS.next(delivery(id, attempts, giveUp), at)) {
            at = next.get();
            attempts++;
        }
        assertThat(attempts).isBetween(25, 36);
        assertThat(at).isBeforeOrEqualTo(giveUp).isAfter(giveUp.minus(Duration.ofMinutes(75)));
    }
}
