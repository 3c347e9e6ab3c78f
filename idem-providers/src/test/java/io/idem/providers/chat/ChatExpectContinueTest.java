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
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.providers.http.ExpectStandIn;
import io.idem.providers.http.ExpectStandIn.Behaviour;
import io.idem.providers.http.VendorHttpClients;
import io.idem.providers.http.VendorStandIn;
import java.math.BigDecimal;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code openai_chat} with {@code chat_expect_continue} on, through the client every provider gets
 * ({@link VendorHttpClients}), against raw-socket vendors that handle {@code Expect: 100-continue}
 * each their own way; and with it off, as chat providers have it by default.
 */
class ChatExpectContinueTest {
    /** For vendors that never say {@code 100} in time: the wait runs out. */
    private static final Duration HASTY = Duration.ofMillis(200);
    /** For vendors that answer the head at once: a wait no busy machine's hiccup outlasts. */
    private static final Duration PATIENT = Duration.ofMillis(2500);

    private static OpenAiChatAdapter adapter(ExpectStandIn vendor, Optional<Boolean> expect, Duration wait) {
        ProviderSettings settings = new ProviderSettings(
                "openai",
                OpenAiChatVendor.NAME,
                new ProviderSettings.Endpoint(
                        vendor.uri("/v1"),
                        Optional.of("KEY"),
                        Duration.ofSeconds(2),
                        Optional.empty(),
                        new ProviderSettings.ExpectContinue(wait, expect)),
                "none",
                Map.of(),
                new PricingModel.PerImage(BigDecimal.ZERO),
                true,
                Capabilities.ANY,
                Optional.empty());
        HttpClient client = VendorHttpClients.forProvider(settings);
        return new OpenAiChatAdapter(settings, client, name -> "sk-test-expect-1234", VendorStandIn.REDACTOR);
    }

    private static ChatCall call() {
        return new ChatCall(
                new ChatRequest(
                        List.of(new ChatMessage("user", "hi")),
                        "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                        0),
                "r",
                "gpt-4o-mini",
                Duration.ofSeconds(4),
                Optional.empty());
    }

    private static ChatReply complete(ExpectStandIn vendor) {
        return complete(vendor, PATIENT);
    }

    private static ChatReply complete(ExpectStandIn vendor, Duration wait) {
        return adapter(vendor, Optional.of(true), wait).complete(call());
    }

    @Test
    void aVendorThatIgnoresExpectAnswersAfterTheWait() throws Exception {
        try (ExpectStandIn vendor = ExpectStandIn.start(Behaviour.IGNORES_EXPECT)) {
            assertThat(complete(vendor, HASTY)).isInstanceOf(ChatReply.Served.class);
            assertThat(vendor.bodies()).hasSize(1);
            assertThat(vendor.unaskedBodyBytes(Duration.ofSeconds(10))).isZero();
        }
    }

    @Test
    void aStreamFromAVendorThatIgnoresExpectIsReadAfterTheWait() throws Exception {
        try (ExpectStandIn vendor = ExpectStandIn.start(Behaviour.IGNORES_EXPECT)) {
            ChatStream stream = adapter(vendor, Optional.of(true), HASTY).stream(call());

            assertThat(drain(stream)).last().isInstanceOf(ChatEvent.Finished.class);
            assertThat(stream.requestSent()).isTrue();
            assertThat(vendor.bodies()).hasSize(1);
            assertThat(vendor.unaskedBodyBytes(Duration.ofSeconds(10))).isZero();
        }
    }

    @Test
    void a417IsAnsweredByTheSameBodyWithoutExpect() {
        try (ExpectStandIn vendor = ExpectStandIn.start(Behaviour.REFUSES_EXPECT)) {
            assertThat(complete(vendor)).isInstanceOf(ChatReply.Served.class);
            assertThat(vendor.bodies()).hasSize(1);
        }
    }

    @Test
    void aFinalErrorForTheHeadIsNeverSent() {
        try (ExpectStandIn unavailable = ExpectStandIn.answeringHeads(503);
                ExpectStandIn unauthorized = ExpectStandIn.answeringHeads(401)) {
            assertThat(complete(unavailable))
                    .isInstanceOfSatisfying(
                            ChatReply.Failed.class,
                            f -> assertThat(f.outcome())
                                    .isInstanceOfSatisfying(
                                            Outcome.Unavailable.class,
                                            u -> assertThat(u.billable()).isEqualTo(Billable.NO)));
            assertThat(complete(unauthorized))
                    .isInstanceOfSatisfying(
                            ChatReply.Failed.class,
                            f -> assertThat(f.outcome())
                                    .isInstanceOfSatisfying(
                                            Outcome.Rejected.class,
                                            r -> assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG)));
            assertThat(unavailable.bodies()).isEmpty();
            assertThat(unauthorized.bodies()).isEmpty();
        }
    }

    @Test
    void aDropAfterTheBodyIsUnconfirmed() {
        try (ExpectStandIn vendor = ExpectStandIn.start(Behaviour.DROPS_AFTER_BODY)) {
            assertThat(complete(vendor))
                    .isInstanceOfSatisfying(
                            ChatReply.Failed.class,
                            f -> assertThat(f.outcome())
                                    .isInstanceOfSatisfying(
                                            Outcome.Unconfirmed.class,
                                            u -> assertThat(u.code()).isEqualTo("connection_lost")));
            assertThat(vendor.bodies()).hasSize(1);
        }
    }

    @Test
    void byDefaultAChatCallDoesNotAskForContinue() {
        try (ExpectStandIn vendor = ExpectStandIn.start(Behaviour.IGNORES_EXPECT)) {
            assertThat(adapter(vendor, Optional.empty(), HASTY).complete(call()))
                    .isInstanceOf(ChatReply.Served.class);
            assertThat(vendor.heads()).isEqualTo(1);
        }
    }
}
