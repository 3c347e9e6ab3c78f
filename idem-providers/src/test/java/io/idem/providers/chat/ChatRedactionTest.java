package io.idem.providers.chat;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static io.idem.providers.chat.StreamEvents.drain;
import static io.idem.providers.http.EchoedCredentials.answer;
import static io.idem.providers.http.EchoedCredentials.assertRedacted;
import static io.idem.providers.http.EchoedCredentials.words;
import static io.idem.providers.http.VendorStandIn.environmentWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.chat.ChatAdapter;
import io.idem.core.chat.ChatCall;
import io.idem.core.chat.ChatEvent;
import io.idem.core.chat.ChatMessage;
import io.idem.core.chat.ChatReply;
import io.idem.core.chat.ChatRequest;
import io.idem.core.provider.ProviderSettings;
import io.idem.providers.http.VendorStandIn;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A chat vendor (or the authenticating proxy in front of it) that quotes the key back never puts
 * it on an outcome: {@code openai_chat}, {@code ollama} and {@code fake}, plain and streamed, in an
 * error answer and in an error mid-stream.
 */
class ChatRedactionTest {
    private static final String KEY_ENV = "IDEM_TEST_CHAT_KEY";
    /** No key shape: only the key itself being known can hide it. */
    private static final String KEY = "plainChatVendorKey0123456789";

    @RegisterExtension
    static WireMockExtension wm = VendorStandIn.extension();

    /**
     * One chat adapter type: where it posts, how its vendor words an error answer and an error in a
     * stream, and the adapter pointed at the stand-in.
     */
    record Vendor(String name, String path, String error, String streamError, Function<String, ChatAdapter> at) {
        @Override
        public String toString() {
            return name;
        }

        ChatAdapter adapter() {
            return at.apply(wm.baseUrl());
        }
    }

    private static final List<Vendor> VENDORS = List.of(
            new Vendor(
                    "openai_chat",
                    "/v1/chat/completions",
                    "{\"error\": {\"message\": \"" + words(KEY) + "\", \"code\": \"invalid_api_key\"}}",
                    "data: {\"error\": {\"message\": \"" + words(KEY) + "\"}}\n\n",
                    base -> new OpenAiChatAdapter(
                            settings("openai_chat", base + "/v1"),
                            VendorStandIn.client(),
                            environmentWith(KEY_ENV, KEY),
                            VendorStandIn.REDACTOR)),
            new Vendor(
                    "ollama",
                    "/api/chat",
                    "{\"error\": \"" + words(KEY) + "\"}",
                    "{\"error\": \"" + words(KEY) + "\"}\n",
                    base -> new OllamaChatAdapter(
                            settings("ollama", base),
                            VendorStandIn.client(),
                            List.of("m"),
                            environmentWith(KEY_ENV, KEY),
                            VendorStandIn.REDACTOR)),
            new Vendor(
                    "fake",
                    "/v1/chat/completions",
                    "{\"error\": {\"message\": \"" + words(KEY) + "\", \"code\": \"invalid_api_key\"}}",
                    "data: {\"error\": {\"message\": \"" + words(KEY) + "\"}}\n\n",
                    base -> new FakeChatAdapter(
                            settings("fake", base),
                            VendorStandIn.client(),
                            environmentWith(KEY_ENV, KEY),
                            VendorStandIn.REDACTOR)));

    static Stream<Vendor> vendors() {
        return VENDORS.stream();
    }

    static Stream<Arguments> vendorsAndStatuses() {
        return VENDORS.stream().flatMap(v -> IntStream.of(401, 403, 400).mapToObj(status -> Arguments.of(v, status)));
    }

    private static ProviderSettings settings(String adapter, String baseUrl) {
        return new ProviderSettings(
                "chat",
                adapter,
                URI.create(baseUrl),
                Optional.of(KEY_ENV),
                "none",
                Map.of(),
                Duration.ofSeconds(2),
                BigDecimal.ZERO,
                true);
    }

    private static ChatCall call() {
        return new ChatCall(
                new ChatRequest(List.of(new ChatMessage("user", "hi")), "{\"messages\":[]}", 0),
                "r",
                "m",
                Duration.ofSeconds(2),
                Optional.empty());
    }

    @ParameterizedTest(name = "{0}, HTTP {1}")
    @MethodSource("vendorsAndStatuses")
    void aPlainCallsErrorThatQuotesTheKeyKeepsItOffTheOutcome(Vendor vendor, int status) {
        wm.stubFor(post(vendor.path()).willReturn(answer(status, vendor.error())));

        ChatReply reply = vendor.adapter().complete(call());

        assertThat(reply).isInstanceOf(ChatReply.Failed.class);
        assertRedacted(reply.toString(), "Bearer", KEY);
    }

    @ParameterizedTest(name = "{0}, HTTP {1}")
    @MethodSource("vendorsAndStatuses")
    void aStreamsErrorThatQuotesTheKeyKeepsItOffTheOutcome(Vendor vendor, int status) throws Exception {
        wm.stubFor(post(vendor.path()).willReturn(answer(status, vendor.error())));

        List<ChatEvent> events = drain(vendor.adapter().stream(call()));

        assertThat(events.getLast()).isInstanceOf(ChatEvent.Failed.class);
        assertRedacted(events.getLast().toString(), "Bearer", KEY);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vendors")
    void anErrorMidStreamThatQuotesTheKeyKeepsItOffTheOutcome(Vendor vendor) throws Exception {
        wm.stubFor(post(vendor.path())
                .willReturn(aResponse()
                        .withStatus(200)
                        .withBody(vendor.streamError())
                        .withTransformers("response-template")));

        List<ChatEvent> events = drain(vendor.adapter().stream(call()));

        assertThat(events.getLast()).isInstanceOf(ChatEvent.Failed.class);
        assertRedacted(events.getLast().toString(), "Bearer", KEY);
    }
}
