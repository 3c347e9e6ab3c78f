package io.idem.providers.chat;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static io.idem.providers.chat.StreamEvents.drain;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.idem.core.chat.ChatCall;
import io.idem.core.chat.ChatEvent;
import io.idem.core.chat.ChatMessage;
import io.idem.core.chat.ChatReply;
import io.idem.core.chat.ChatRequest;
import io.idem.core.chat.ContextLength;
import io.idem.core.chat.FailoverRule;
import io.idem.core.chat.TokenUsage;
import io.idem.core.chat.Trigger;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.provider.ProviderSettings;
import io.idem.providers.http.VendorStandIn;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code openai_chat} against a WireMock stand-in: passthrough, error mapping, SSE reading. */
class OpenAiChatAdapterTest {
    private static final String SECRET = "sk-test-chat-do-not-print-1234";
    private WireMockServer vendor;
    private OpenAiChatAdapter adapter;

    @BeforeEach
    void start() {
        vendor = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
        vendor.start();
        ProviderSettings settings = new ProviderSettings(
                "openai",
                "openai_chat",
                URI.create(vendor.baseUrl() + "/v1"),
                Optional.of("KEY"),
                "none",
                Map.of(),
                Duration.ofSeconds(2),
                BigDecimal.ZERO,
                true);
        adapter = new OpenAiChatAdapter(
                settings,
                io.idem.providers.http.VendorStandIn.client(),
                name -> SECRET,
                VendorStandIn.REDACTOR,
                "/chat/completions",
                "/models",
                false);
    }

    @AfterEach
    void stop() {
        vendor.stop();
    }

    private static ChatCall call() {
        return new ChatCall(
                new ChatRequest(
                        List.of(new ChatMessage("user", "hi")),
                        "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"temperature\":0.5}",
                        0),
                "r",
                "gpt-4o-mini",
                Duration.ofSeconds(2),
                Optional.of("http_503"));
    }

    private Outcome failed(int status, String body) {
        vendor.stubFor(post("/v1/chat/completions")
                .willReturn(aResponse().withStatus(status).withBody(body)));
        return ((ChatReply.Failed) adapter.complete(call())).outcome();
    }

    @Test
    void theCallersFieldsPassThroughWithThisAttemptsModelAndNoSimulateHeader() {
        vendor.stubFor(post("/v1/chat/completions")
                .willReturn(aResponse()
                        .withStatus(200)
                        .withHeader("x-request-id", "req_9")
                        .withBody(
                                "{\"id\":\"c1\",\"choices\":[{\"message\":{\"content\":\"yo\"},\"finish_reason\":\"stop\"}],"
                                        + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}")));
        ChatReply reply = adapter.complete(call());
        assertThat(reply).isInstanceOfSatisfying(ChatReply.Served.class, s -> {
            assertThat(s.completion().text()).isEqualTo("yo");
            assertThat(s.completion().requestId()).contains("req_9");
        });
        vendor.verify(postRequestedFor(urlEqualTo("/v1/chat/completions"))
                .withHeader("Authorization", equalTo("Bearer " + SECRET))
                .withoutHeader("X-Idem-Simulate")
                .withRequestBody(equalToJson("{\"model\":\"gpt-4o-mini\",\"stream\":false,"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"temperature\":0.5}")));
    }

    @Test
    void answersSayingTheVendorCannotServeUsMakeTheProviderUnusableAndOthersDoNot() {
        for (String unusable : java.util.List.of(
                "429 {\"error\":{\"code\":\"insufficient_quota\"}}",
                "400 {\"error\":{\"code\":\"billing_hard_limit_reached\"}}",
                "401 {\"error\":{\"code\":\"invalid_api_key\"}}",
                "403 {\"error\":{\"message\":\"forbidden\"}}",
                "404 {\"error\":{\"code\":\"model_not_found\"}}")) {
            int status = Integer.parseInt(unusable.substring(0, 3));
            assertThat(failed(status, unusable.substring(4)))
                    .as(unusable)
                    .isInstanceOfSatisfying(
                            Outcome.Rejected.class,
                            r -> assertThat(r.unusable()).isTrue());
        }
        assertThat(failed(400, "{\"error\":{\"code\":\"context_length_exceeded\"}}"))
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.unusable()).isFalse());
        assertThat(failed(400, "{\"error\":{\"code\":\"content_filter\"}}"))
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.unusable()).isFalse());
    }

    @Test
    void errorsMapOntoOutcomesAndNeverQuoteTheKey() {
        assertThat(failed(429, "{\"error\":{\"code\":\"rate_limit_exceeded\",\"message\":\"slow\"}}"))
                .isInstanceOf(Outcome.Unavailable.class);
        assertThat(failed(500, "{\"error\":{\"message\":\"oops\"}}")).isInstanceOf(Outcome.Unavailable.class);
        assertThat(failed(429, "{\"error\":{\"code\":\"insufficient_quota\"}}"))
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG));
        assertThat(failed(400, "{\"error\":{\"code\":\"content_filter\"}}"))
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.POLICY));
        assertThat(failed(400, "{\"error\":{\"code\":\"context_length_exceeded\"}}"))
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.USER_ERROR));
        Outcome unauthorized = failed(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + SECRET + "\"}}");
        assertThat(unauthorized).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG);
            assertThat(r.message()).doesNotContain(SECRET);
        });
    }

    @Test
    void aPromptTooLongIsAContextRefusalWhateverTheServerCallsIt() {
        // OpenAI's code, and an OpenAI-compatible server (vLLM) that says it in words with a numeric code
        for (String body : List.of(
                "{\"error\":{\"code\":\"context_length_exceeded\",\"message\":\"too long\"}}",
                "{\"error\":{\"type\":\"BadRequestError\",\"code\":400,\"message\":\"This model's maximum"
                        + " context length is 4096 tokens. However, you requested 5000 tokens.\"}}")) {
            assertThat(failed(400, body)).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
                assertThat(r.code()).isEqualTo(ContextLength.CODE);
                assertThat(FailoverRule.reasonOf(r)).contains(Trigger.CONTEXT_LENGTH);
            });
        }
        assertThat(failed(400, "{\"error\":{\"code\":\"invalid_value\",\"message\":\"bad messages\"}}"))
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class,
                        r -> assertThat(FailoverRule.reasonOf(r)).isEmpty());
    }

    @Test
    void aStreamAsksForUsageAndAnErrorFrameIsUnconfirmed() throws Exception {
        vendor.stubFor(
                post("/v1/chat/completions")
                        .willReturn(
                                aResponse()
                                        .withStatus(200)
                                        .withHeader("Content-Type", "text/event-stream")
                                        .withBody(
                                                "data: {\"choices\":[{\"delta\":{\"content\":\"He\"}}]}\n\n"
                                                        + "data: {\"error\":{\"message\":\"overloaded mid-stream\",\"type\":\"server_error\"}}\n\n")));
        List<ChatEvent> events = drain(adapter.stream(call()));
        assertThat(events.getFirst()).isEqualTo(new ChatEvent.Token("He"));
        assertThat(events.getLast()).isInstanceOfSatisfying(ChatEvent.Failed.class, f -> {
            assertThat(f.outcome()).isInstanceOf(Outcome.Unconfirmed.class);
            assertThat(((Outcome.Unconfirmed) f.outcome()).code()).isEqualTo("stream_error");
        });
        vendor.verify(postRequestedFor(urlEqualTo("/v1/chat/completions"))
                .withRequestBody(
                        equalToJson("{\"stream\":true,\"stream_options\":{\"include_usage\":true}}", true, true)));
    }

    @Test
    void aStreamThatEndsWithoutDoneIsUnconfirmed() throws Exception {
        vendor.stubFor(post("/v1/chat/completions")
                .willReturn(aResponse()
                        .withStatus(200)
                        .withBody("data: {\"choices\":[{\"delta\":{\"content\":\"He\"}}]}\n\n")));
        List<ChatEvent> events = drain(adapter.stream(call()));
        assertThat(events.getLast())
                .isInstanceOfSatisfying(
                        ChatEvent.Failed.class, f -> assertThat(f.outcome()).isInstanceOf(Outcome.Unconfirmed.class));
    }

    @Test
    void aStreamThatFinishedAndThenEndsCleanlyWithoutDoneIsComplete() throws Exception {
        vendor.stubFor(
                post("/v1/chat/completions")
                        .willReturn(
                                aResponse()
                                        .withStatus(200)
                                        .withBody(
                                                ": connected\n\n"
                                                        + "data: {\"id\":\"c7\",\"choices\":[{\"delta\":{\"content\":\"He\"}}]}\n\n"
                                                        + ": keep-alive\n\ndata:\n\n"
                                                        + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                                                        + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":1}}\n\n")));
        List<ChatEvent> events = drain(adapter.stream(call()));
        assertThat(events.getFirst()).isEqualTo(new ChatEvent.Token("He"));
        assertThat(events.getLast())
                .isEqualTo(new ChatEvent.Finished(
                        "stop", Optional.of(new TokenUsage(4, 1)), Optional.of("c7"), Optional.empty()));
    }

    @Test
    void aPlainAnswerPassesToolCallsLogprobsFingerprintAndUsageDetailsThrough() throws Exception {
        vendor.stubFor(post("/v1/chat/completions")
                .willReturn(aResponse()
                        .withStatus(200)
                        .withBody("{\"id\":\"c2\",\"system_fingerprint\":\"fp_1\",\"choices\":[{\"message\":"
                                + "{\"role\":\"assistant\",\"content\":null,\"refusal\":null,\"tool_calls\":[{\"id\":\"call_1\","
                                + "\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{}\"}}]},"
                                + "\"logprobs\":{\"content\":[]},\"finish_reason\":\"tool_calls\"}],"
                                + "\"usage\":{\"prompt_tokens\":30,\"completion_tokens\":9,"
                                + "\"prompt_tokens_details\":{\"cached_tokens\":16},"
                                + "\"completion_tokens_details\":{\"reasoning_tokens\":4}}}")));
        var completion = ((ChatReply.Served) adapter.complete(call())).completion();
        assertThat(completion.text()).isEmpty();
        assertThat(completion.finishReason()).isEqualTo("tool_calls");
        assertThat(completion.usage()).contains(new TokenUsage(30, 9, 16, 4));
        var passthrough = ChatJson.MAPPER.readTree(completion.passthrough());
        assertThat(passthrough.at("/message/tool_calls/0/function/name").asText())
                .isEqualTo("get_weather");
        assertThat(passthrough.at("/message").has("refusal")).isFalse();
        assertThat(passthrough.at("/logprobs/content").isArray()).isTrue();
        assertThat(passthrough.at("/system_fingerprint").asText()).isEqualTo("fp_1");
    }

    @Test
    void streamedToolCallDeltasAreTokensThatPassThrough() throws Exception {
        vendor.stubFor(post("/v1/chat/completions")
                .willReturn(aResponse()
                        .withStatus(200)
                        .withBody("data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":null}}]}\n\n"
                                + "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","
                                + "\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}}]}\n\n"
                                + "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,"
                                + "\"function\":{\"arguments\":\"{}\"}}]}}]}\n\n"
                                + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
                                + "data: [DONE]\n\n")));
        List<ChatEvent> events = drain(adapter.stream(call()));
        assertThat(events).hasSize(3);
        assertThat(events.getFirst()).isInstanceOfSatisfying(ChatEvent.Token.class, t -> {
            assertThat(t.substantive()).isTrue();
            assertThat(t.passthrough()).contains("\"name\":\"f\"");
        });
        assertThat(events.getLast())
                .isInstanceOfSatisfying(
                        ChatEvent.Finished.class,
                        f -> assertThat(f.finishReason()).isEqualTo("tool_calls"));
    }

    @Test
    void aDataFrameThatIsNotJsonFailsTheStream() throws Exception {
        vendor.stubFor(post("/v1/chat/completions")
                .willReturn(aResponse()
                        .withStatus(200)
                        .withBody("data: {\"choices\":[{\"delta\":{\"content\":\"He\"}}]}\n\n" + "data: <html>\n\n")));
        List<ChatEvent> events = drain(adapter.stream(call()));
        assertThat(events.getLast())
                .isInstanceOfSatisfying(
                        ChatEvent.Failed.class,
                        f -> assertThat(f.outcome())
                                .isInstanceOfSatisfying(
                                        Outcome.Unconfirmed.class,
                                        u -> assertThat(u.code()).isEqualTo("malformed_stream")));
    }

    @Test
    void aRateLimitCarriesTheVendorsWaitPlainAndStreamed() throws Exception {
        vendor.stubFor(post("/v1/chat/completions")
                .willReturn(aResponse()
                        .withStatus(429)
                        .withHeader("retry-after-ms", "2500")
                        .withHeader("Retry-After", "3")
                        .withBody("{\"error\":{\"code\":\"rate_limit_exceeded\",\"message\":\"slow down\"}}")));
        Outcome plain = ((ChatReply.Failed) adapter.complete(call())).outcome();
        assertThat(plain)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.retryAfter()).contains(Duration.ofMillis(2500)));
        List<ChatEvent> events = drain(adapter.stream(call()));
        assertThat(events.getLast())
                .isInstanceOfSatisfying(
                        ChatEvent.Failed.class,
                        f -> assertThat(f.outcome())
                                .isInstanceOfSatisfying(
                                        Outcome.Unavailable.class,
                                        u -> assertThat(u.retryAfter()).contains(Duration.ofMillis(2500))));
    }

    @Test
    void aFiveHundredSaysNoWaitEvenWithARetryAfter() {
        vendor.stubFor(post("/v1/chat/completions")
                .willReturn(aResponse()
                        .withStatus(503)
                        .withHeader("Retry-After", "30")
                        .withBody("{\"error\":{\"message\":\"overloaded\"}}")));
        Outcome outcome = ((ChatReply.Failed) adapter.complete(call())).outcome();
        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.retryAfter()).isEmpty());
    }
}
