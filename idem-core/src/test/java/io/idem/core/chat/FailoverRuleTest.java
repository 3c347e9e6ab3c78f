package io.idem.core.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.chat.FailoverRule.Verdict;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FailoverRuleTest {
    private static final Set<Trigger> ALL = Trigger.all();

    private static Outcome unavailable(String code, int status) {
        return new Outcome.Unavailable(code, "m", status, null);
    }

    private static Outcome unconfirmed(String code, int status) {
        return new Outcome.Unconfirmed(code, "m", status, null);
    }

    @Test
    void eachFailureMapsOntoItsTrigger() {
        assertThat(FailoverRule.reasonOf(unavailable("rate_limit_exceeded", 429)))
                .contains(Trigger.RATE_LIMIT);
        assertThat(FailoverRule.reasonOf(unavailable("overloaded", 503))).contains(Trigger.SERVER_ERROR);
        assertThat(FailoverRule.reasonOf(unavailable("http_500", 500))).contains(Trigger.SERVER_ERROR);
        assertThat(FailoverRule.reasonOf(unavailable("malformed_response", 200)))
                .contains(Trigger.SERVER_ERROR);
        assertThat(FailoverRule.reasonOf(unavailable("connect_failed", 0))).contains(Trigger.CONNECTION_ERROR);
        assertThat(FailoverRule.reasonOf(unavailable("connection_closed_before_send", 0)))
                .contains(Trigger.CONNECTION_ERROR);
        assertThat(FailoverRule.reasonOf(unavailable("timeout_before_send", 0))).contains(Trigger.TIMEOUT);
        assertThat(FailoverRule.reasonOf(unconfirmed("read_timeout", 0))).contains(Trigger.TIMEOUT);
        assertThat(FailoverRule.reasonOf(unconfirmed("first_token_timeout", 0))).contains(Trigger.TIMEOUT);
        assertThat(FailoverRule.reasonOf(unconfirmed("connection_lost", 200))).contains(Trigger.CONNECTION_ERROR);
        assertThat(FailoverRule.reasonOf(unconfirmed("stream_error", 200))).contains(Trigger.SERVER_ERROR);
        assertThat(FailoverRule.reasonOf(new Outcome.Rejected(RejectionKind.CONFIG, "invalid_api_key", "m", 401, null)))
                .contains(Trigger.SERVER_ERROR);
        assertThat(FailoverRule.reasonOf(
                        new Outcome.Rejected(RejectionKind.USER_ERROR, ContextLength.CODE, "too long", 400, null)))
                .contains(Trigger.CONTEXT_LENGTH);
    }

    @Test
    void aVendorsWordsForAPromptTooLongAreAContextRefusal() {
        assertThat(ContextLength.refused("context_length_exceeded", "whatever")).isTrue();
        assertThat(ContextLength.refused(
                        "invalid_request_error",
                        "This model's maximum context length is 8192 tokens. However, your messages resulted in"
                                + " 9001 tokens."))
                .isTrue();
        assertThat(ContextLength.refused("http_400", "the input length exceeds the context length"))
                .isTrue();
        assertThat(ContextLength.refused("invalid_value", "'messages' is not valid for this model"))
                .isFalse();
        assertThat(ContextLength.refused("invalid_value", null)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Trigger.class)
    void aTriggerInOnFailsOverAndOutsideItStops(Trigger trigger) {
        Outcome outcome = switch (trigger) {
            case TIMEOUT -> unconfirmed("read_timeout", 0);
            case RATE_LIMIT -> unavailable("rate_limit_exceeded", 429);
            case SERVER_ERROR -> unavailable("overloaded", 503);
            case CONNECTION_ERROR -> unavailable("connect_failed", 0);
            case CONTEXT_LENGTH ->
                new Outcome.Rejected(RejectionKind.USER_ERROR, ContextLength.CODE, "maximum context length", 400, null);
        };
        assertThat(FailoverRule.decide(outcome, Set.of(trigger), UnconfirmedPolicy.FAILOVER, true, true))
                .isEqualTo(Verdict.FAIL_OVER);
        Set<Trigger> others = EnumSet.complementOf(EnumSet.of(trigger));
        assertThat(FailoverRule.decide(outcome, others, UnconfirmedPolicy.FAILOVER, true, true))
                .isEqualTo(Verdict.STOP);
    }

    @Test
    void rejectionsOfTheRequestAndOurOwnBugsNeverFailOver() {
        for (Outcome never : List.of(
                new Outcome.Rejected(RejectionKind.USER_ERROR, "invalid_value", "m", 400, null),
                new Outcome.Rejected(RejectionKind.POLICY, "content_policy_violation", "m", 400, null),
                new Outcome.AdapterFault("npe", true))) {
            assertThat(FailoverRule.reasonOf(never)).isEmpty();
            assertThat(FailoverRule.decide(never, ALL, UnconfirmedPolicy.FAILOVER, true, true))
                    .isEqualTo(Verdict.FINAL);
        }
    }

    @Test
    void anUnconfirmedAttemptGoesOnOnlyWhenTheLaneSaysFailover() {
        Outcome unknown = unconfirmed("connection_lost", 200);
        assertThat(FailoverRule.decide(unknown, ALL, UnconfirmedPolicy.FAILOVER, true, true))
                .isEqualTo(Verdict.FAIL_OVER);
        assertThat(FailoverRule.decide(unknown, ALL, UnconfirmedPolicy.STOP, true, true))
                .isEqualTo(Verdict.STOP);
        assertThat(FailoverRule.decide(unavailable("overloaded", 503), ALL, UnconfirmedPolicy.STOP, true, true))
                .as("an unavailable attempt is not unconfirmed")
                .isEqualTo(Verdict.FAIL_OVER);
    }

    @Test
    void nothingLeftOrNoTimeLeftStops() {
        Outcome busy = unavailable("overloaded", 503);
        assertThat(FailoverRule.decide(busy, ALL, UnconfirmedPolicy.FAILOVER, false, true))
                .isEqualTo(Verdict.STOP);
        assertThat(FailoverRule.decide(busy, ALL, UnconfirmedPolicy.FAILOVER, true, false))
                .isEqualTo(Verdict.STOP);
    }

    @Test
    void everyFailureARateLimitIs429ElseEverythingIs502() {
        var rate = Optional.of(Trigger.RATE_LIMIT);
        assertThat(FailoverRule.allFailedStatus(List.of(rate, rate))).isEqualTo(429);
        assertThat(FailoverRule.allFailedStatus(List.of(rate, Optional.of(Trigger.SERVER_ERROR))))
                .isEqualTo(502);
        assertThat(FailoverRule.allFailedStatus(List.of(rate, Optional.empty())))
                .as("a skipped model")
                .isEqualTo(502);
        assertThat(FailoverRule.allFailedStatus(List.of())).isEqualTo(502);
    }

    @Test
    void aConfirmedOutcomeHasNoReason() {
        var media = new GenerationResult.Media(new byte[0], "text/plain");
        assertThat(FailoverRule.reasonOf(new Outcome.Confirmed(new GenerationResult(List.of(media)), 200, null, null)))
                .isEmpty();
    }
}
