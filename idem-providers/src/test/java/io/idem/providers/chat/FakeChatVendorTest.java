package io.idem.providers.chat;

import static io.idem.providers.chat.StreamEvents.drain;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.chat.ChatCall;
import io.idem.core.chat.ChatEvent;
import io.idem.core.chat.ChatMessage;
import io.idem.core.chat.ChatReply;
import io.idem.core.chat.ChatRequest;
import io.idem.core.chat.ChatStream;
import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.provider.ProviderSettings;
import io.idem.providers.fake.FakeChatModes;
import io.idem.providers.fake.FakeVendorServer;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fake vendor's chat side over real HTTP, through the fake chat adapter: each simulate mode ends
 * in its outcome, and the vendor's invoice bills exactly what the mode says.
 */
class FakeChatVendorTest {
    private static FakeVendorServer vendor;
    private static FakeChatAdapter adapter;
    private static final ChatRequest REQUEST = new ChatRequest(
            List.of(new ChatMessage("user", "tell me a story")),
            "{\"messages\":[{\"role\":\"user\",\"content\":\"tell me a story\"}]}",
            0);

    @BeforeAll
    static void start() {
        vendor = FakeVendorServer.start(0);
        ProviderSettings settings = new ProviderSettings(
                "fake1",
                "fake",
                vendor.baseUrl(),
                Optional.empty(),
                "fake-image-v1",
                Map.of(),
                Duration.ofSeconds(2),
                BigDecimal.ZERO,
                true);
        adapter = new FakeChatAdapter(settings, io.idem.providers.http.VendorStandIn.client());
    }

    @AfterAll
    static void stop() {
        vendor.close();
    }

    @BeforeEach
    void clean() {
        vendor.resetLedger();
    }

    private static ChatCall call(String mode, Duration timeout) {
        return new ChatCall(REQUEST, "ref-1", "fake-chat-a", timeout, Optional.ofNullable(mode));
    }

    private static Outcome failure(String mode) {
        ChatReply reply = adapter.complete(call(mode, Duration.ofSeconds(2)));
        assertThat(reply).as(mode).isInstanceOf(ChatReply.Failed.class);
        return ((ChatReply.Failed) reply).outcome();
    }

    /** Pulls a stream to its end: the texts, then the terminal event. */
    @Test
    void okAnswersDeterministicallyWithUsageAndBillsIt() {
        ChatReply reply = adapter.complete(call(null, Duration.ofSeconds(2)));
        assertThat(reply).isInstanceOfSatisfying(ChatReply.Served.class, served -> {
            assertThat(served.completion().text()).isEqualTo("Hello from fake-chat-a. You said: tell me a story");
            assertThat(served.completion().usage()).hasValueSatisfying(u -> {
                assertThat(u.promptTokens()).isEqualTo(4);
                assertThat(u.completionTokens()).isEqualTo(9);
            });
        });
        assertThat(vendor.chatLedger())
                .singleElement()
                .satisfies(line -> assertThat(line.completionTokens()).isEqualTo(9));
    }

    @Test
    void refusalsAreUnavailableOrRejectedAndBillNothing() {
        assertThat(failure("http_503"))
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.httpStatus()).isEqualTo(503));
        assertThat(failure("http_429"))
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.httpStatus()).isEqualTo(429));
        assertThat(failure("refuse"))
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class, u -> assertThat(u.billable()).isEqualTo(Billable.NO));
        assertThat(failure("malformed"))
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class, u -> assertThat(u.code()).isEqualTo("malformed_response"));
        assertThat(failure("auth"))
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG));
        assertThat(failure("policy"))
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.POLICY));
        assertThat(failure("user_error"))
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.USER_ERROR));
        assertThat(vendor.chatLedger()).isEmpty();
    }

    @Test
    void answersThatWereSentButNeverCompletedAreUnconfirmedAndBilled() {
        assertThat(failure("disconnect")).isInstanceOf(Outcome.Unconfirmed.class);
        assertThat(adapter.complete(call("timeout", Duration.ofMillis(500))))
                .isInstanceOfSatisfying(
                        ChatReply.Failed.class, f -> assertThat(f.outcome()).isInstanceOf(Outcome.Unconfirmed.class));
        assertThat(failure("stream_cut:2"))
                .as("a plain answer cut in its body")
                .isInstanceOf(Outcome.Unconfirmed.class);
        assertThat(vendor.chatLedger()).hasSize(3);
    }

    @Test
    void aStreamCarriesTokensThenFinishesWithUsage() throws Exception {
        List<ChatEvent> events = drain(adapter.stream(call(null, Duration.ofSeconds(2))));
        StringBuilder text = new StringBuilder();
        events.stream()
                .filter(e -> e instanceof ChatEvent.Token)
                .forEach(t -> text.append(((ChatEvent.Token) t).text()));
        assertThat(text.toString()).isEqualTo("Hello from fake-chat-a. You said: tell me a story");
        assertThat(events.getLast()).isInstanceOfSatisfying(ChatEvent.Finished.class, f -> {
            assertThat(f.finishReason()).isEqualTo("stop");
            assertThat(f.usage()).isPresent();
        });
    }

    @Test
    void aCutStreamEndsUnconfirmedAfterItsTokensAndBillsThem() throws Exception {
        List<ChatEvent> events = drain(adapter.stream(call("stream_cut:3", Duration.ofSeconds(2))));
        assertThat(events.stream()
                        .filter(e -> e instanceof ChatEvent.Token t && !t.text().isEmpty()))
                .hasSize(3);
        assertThat(events.getLast())
                .isInstanceOfSatisfying(
                        ChatEvent.Failed.class, f -> assertThat(f.outcome()).isInstanceOf(Outcome.Unconfirmed.class));
        assertThat(vendor.chatLedger())
                .singleElement()
                .satisfies(line -> assertThat(line.completionTokens()).isEqualTo(3));
    }

    @Test
    void aDelayedFirstTokenKeepsTheStreamSilentAfterItsRoleChunk() throws Exception {
        ChatStream stream = adapter.stream(call("first_token_delay:1500", Duration.ofSeconds(5)));
        assertThat(stream.next(Duration.ofSeconds(2)))
                .hasValueSatisfying(e -> assertThat(e).isEqualTo(new ChatEvent.Token("")));
        assertThat(stream.next(Duration.ofMillis(300))).isEmpty();
        assertThat(stream.requestSent()).isTrue();
        stream.close();
    }

    @Test
    void aRefusedStreamFailsWithNothingSent() throws Exception {
        ChatStream stream = adapter.stream(call("refuse", Duration.ofSeconds(2)));
        assertThat(drain(stream))
                .singleElement()
                .isInstanceOfSatisfying(
                        ChatEvent.Failed.class, f -> assertThat(f.outcome()).isInstanceOf(Outcome.Unavailable.class));
        assertThat(stream.requestSent()).isFalse();
    }

    @Test
    void theModeListNamesEveryModeTheVendorUnderstands() {
        assertThat(FakeChatModes.known("stream_cut:4")).isTrue();
        assertThat(FakeChatModes.known("first_token_delay:250")).isTrue();
        assertThat(FakeChatModes.known("slow:10")).isTrue();
        assertThat(FakeChatModes.known("lost")).isFalse();
        assertThat(FakeChatModes.known("explode")).isFalse();
    }
}
