package io.idem.core.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Which failures a chain entry retries and how long it waits; which models a context refusal skips. */
class RetriesTest {
    private static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
    private static final Instant DEADLINE = NOW.plusSeconds(60);

    private static Outcome unavailable(int status, Optional<Duration> retryAfter) {
        return new Outcome.Unavailable("x", "m", status, null, retryAfter);
    }

    @Test
    void onlyUnbilledRateLimitsAndServerErrorsAreRetried() {
        assertThat(Retries.waitBefore(unavailable(429, Optional.of(Duration.ofSeconds(2))), NOW, DEADLINE))
                .contains(Duration.ofSeconds(2));
        assertThat(Retries.waitBefore(unavailable(429, Optional.empty()), NOW, DEADLINE))
                .contains(Retries.RATE_LIMIT_WAIT);
        for (int status : List.of(500, 502, 503)) {
            assertThat(Retries.waitBefore(unavailable(status, Optional.empty()), NOW, DEADLINE))
                    .contains(Retries.SERVER_ERROR_WAIT)
                    .as("a 5xx that names no wait is tried again at once")
                    .contains(Duration.ZERO);
        }
        assertThat(Retries.waitBefore(unavailable(504, Optional.empty()), NOW, DEADLINE))
                .isEmpty();
        assertThat(Retries.waitBefore(unavailable(0, Optional.empty()), NOW, DEADLINE))
                .isEmpty();
        assertThat(Retries.waitBefore(unavailable(200, Optional.empty()), NOW, DEADLINE))
                .as("a 200 without a usable answer")
                .isEmpty();
        for (Outcome maybeBilled : List.of(
                new Outcome.Unconfirmed("read_timeout", "m", 0, null),
                new Outcome.Unconfirmed("connection_lost", "m", 200, null),
                new Outcome.Unconfirmed("stream_error", "m", 503, null),
                new Outcome.Rejected(RejectionKind.CONFIG, "insufficient_quota", "m", 429, null))) {
            assertThat(Retries.waitBefore(maybeBilled, NOW, DEADLINE)).isEmpty();
        }
    }

    @Test
    void aWaitPastTheDeadlineOrOverTheCapFailsOverAtOnce() {
        assertThat(Retries.waitBefore(unavailable(429, Optional.of(Duration.ofSeconds(2))), NOW, NOW.plusSeconds(2)))
                .isEmpty();
        assertThat(Retries.waitBefore(unavailable(429, Optional.of(Duration.ofSeconds(2))), NOW, NOW.plusMillis(2001)))
                .isPresent();
        assertThat(Retries.waitBefore(
                        unavailable(429, Optional.of(ChainLimits.MAX_RETRY_WAIT.plusMillis(1))), NOW, DEADLINE))
                .isEmpty();
    }

    @Test
    void simulateNamesOneModePerTryTheLastRepeating() {
        assertThat(Retries.simulate(null, 0)).isEmpty();
        assertThat(Retries.simulate("http_503", 3)).contains("http_503");
        assertThat(Retries.simulate("rate_limited:1, ok", 0)).contains("rate_limited:1");
        assertThat(Retries.simulate("rate_limited:1, ok", 1)).contains("ok");
        assertThat(Retries.simulate("rate_limited:1, ok", 5)).contains("ok");
    }

    @Test
    void aContextRefusalSkipsModelsKnownToBeTooSmall() {
        ChatModel small = model("small", OptionalLong.of(8192));
        Outcome refused = new Outcome.Rejected(RejectionKind.USER_ERROR, ContextLength.CODE, "too long", 400, null);
        ChatRequest prompt = new ChatRequest(List.of(new ChatMessage("user", "x".repeat(40_000))), "{}", 0);
        ContextRefusal refusal = ContextRefusal.of(refused, small, prompt).orElseThrow();
        assertThat(refusal.promptTokens()).isEqualTo(10_000);
        assertThat(refusal.tooSmall(model("same", OptionalLong.of(8192)))).isPresent();
        assertThat(refusal.tooSmall(model("tiny", OptionalLong.of(4096))))
                .hasValueSatisfying(why -> assertThat(why).contains("4096").contains("8192 of small"));
        assertThat(refusal.tooSmall(model("nine", OptionalLong.of(9000))))
                .as("larger than the refusing model, but smaller than the prompt's estimate")
                .hasValueSatisfying(why -> assertThat(why).contains("estimated 10000 tokens"));
        assertThat(refusal.tooSmall(model("large", OptionalLong.of(128_000)))).isEmpty();
        assertThat(refusal.tooSmall(model("unknown", OptionalLong.empty()))).isEmpty();
        assertThat(ContextRefusal.of(
                        new Outcome.Rejected(RejectionKind.USER_ERROR, "invalid_value", "m", 400, null), small, prompt))
                .isEmpty();
    }

    private static ChatModel model(String name, OptionalLong window) {
        return new ChatModel(name, "p", name, BigDecimal.ZERO, BigDecimal.ZERO, false, window);
    }
}
