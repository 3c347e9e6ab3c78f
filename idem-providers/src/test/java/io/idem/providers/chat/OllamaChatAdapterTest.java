package io.idem.providers.chat;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
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
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.provider.ProviderSettings;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Ollama adapter against a WireMock stand-in for {@code /api/chat} and {@code /api/tags}. */
class OllamaChatAdapterTest {
    private WireMockServer ollama;
    private OllamaChatAdapter adapter;

    @BeforeEach
    void start() {
        ollama = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
        ollama.start();
        ProviderSettings settings = new ProviderSettings(
                "local",
                "ollama",
                URI.create(ollama.baseUrl()),
                Optional.empty(),
                "none",
                Map.of(),
                Duration.ofSeconds(2),
                BigDecimal.ZERO,
                true);
        adapter = new OllamaChatAdapter(settings, io.idem.providers.http.VendorStandIn.client(), List.of("llama3.2"));
    }

    @AfterEach
    void stop() {
        ollama.stop();
    }

    private static ChatCall call() {
        return new ChatCall(
                new ChatRequest(List.of(new ChatMessage("user", "hi")), "{\"temperature\":0.2,\"max_tokens\":5}", 5),
                "r",
                "llama3.2",
                Duration.ofSeconds(2),
                Optional.empty());
    }

    @Test
    void aPlainCallSendsMessagesAndOptionsAndReadsTheCounts() {
        ollama.stubFor(post("/api/chat").willReturn(aResponse().withStatus(200).withBody("""
                {"model":"llama3.2","message":{"role":"assistant","content":"Hello!"},"done":true,
                 "done_reason":"stop","prompt_eval_count":11,"eval_count":3}""")));
        ChatReply reply = adapter.complete(call());
        assertThat(reply).isInstanceOfSatisfying(ChatReply.Served.class, served -> {
            assertThat(served.completion().text()).isEqualTo("Hello!");
            assertThat(served.completion().usage().orElseThrow().promptTokens()).isEqualTo(11);
        });
        ollama.verify(postRequestedFor(urlEqualTo("/api/chat")).withRequestBody(equalToJson("""
                {"model":"llama3.2","stream":false,"messages":[{"role":"user","content":"hi"}],
                 "options":{"temperature":0.2,"num_predict":5}}""")));
    }

    @Test
    void toolsImagesFormatAndPenaltiesMapOntoOllamaAndItsToolCallsBack() throws Exception {
        ollama.stubFor(post("/api/chat").willReturn(aResponse().withStatus(200).withBody("""
                {"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather",
                 "arguments":{"city":"Paris"}}}]},"done":true,"done_reason":"stop","prompt_eval_count":9,"eval_count":4}""")));
        String fields = """
                {"messages":[
                  {"role":"user","content":[{"type":"text","text":"what is this?"},
                    {"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0K"}}]},
                  {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
                    "function":{"name":"get_weather","arguments":"{\\"city\\":\\"Rome\\"}"}}]},
                  {"role":"tool","tool_call_id":"call_1","content":"sunny"}],
                 "tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}],
                 "response_format":{"type":"json_schema","json_schema":{"name":"w","schema":{"type":"object"}}},
                 "presence_penalty":0.5,"frequency_penalty":0.25}""";
        ChatCall call = new ChatCall(
                new ChatRequest(
                        List.of(
                                new ChatMessage("user", "what is this?"),
                                new ChatMessage("assistant", ""),
                                new ChatMessage("tool", "sunny")),
                        fields,
                        0),
                "r",
                "llama3.2",
                Duration.ofSeconds(2),
                Optional.empty());
        ChatReply reply = adapter.complete(call);
        assertThat(reply).isInstanceOfSatisfying(ChatReply.Served.class, served -> {
            assertThat(served.completion().finishReason()).isEqualTo("tool_calls");
            assertThat(served.completion().passthrough())
                    .contains("\"name\":\"get_weather\"")
                    .contains("\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"");
        });
        ollama.verify(postRequestedFor(urlEqualTo("/api/chat")).withRequestBody(equalToJson("""
                {"model":"llama3.2","stream":false,"messages":[
                  {"role":"user","content":"what is this?","images":["iVBORw0K"]},
                  {"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Rome"}}}]},
                  {"role":"tool","content":"sunny"}],
                 "tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}],
                 "format":{"type":"object"},
                 "options":{"presence_penalty":0.5,"frequency_penalty":0.25}}""")));
    }

    @Test
    void aStreamedToolCallIsATokenWithTheCallAndFinishesAsToolCalls() throws Exception {
        ollama.stubFor(post("/api/chat").willReturn(aResponse().withStatus(200).withBody("""
                {"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{}}}]},"done":false}
                {"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":4,"eval_count":2}
                """)));
        List<ChatEvent> events = drain(adapter.stream(call()));
        assertThat(events.getFirst())
                .isInstanceOfSatisfying(
                        ChatEvent.Token.class,
                        t -> assertThat(t.passthrough()).contains("\"index\":0").contains("\"id\":\"call_0\""));
        assertThat(events.getLast())
                .isInstanceOfSatisfying(
                        ChatEvent.Finished.class,
                        f -> assertThat(f.finishReason()).isEqualTo("tool_calls"));
    }

    @Test
    void aStreamReadsNdjsonToTheDoneLine() throws Exception {
        ollama.stubFor(post("/api/chat").willReturn(aResponse().withStatus(200).withBody("""
                {"message":{"role":"assistant","content":"Hel"},"done":false}
                {"message":{"role":"assistant","content":"lo"},"done":false}
                {"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":4,"eval_count":2}
                """)));
        List<ChatEvent> events = drain(adapter.stream(call()));
        assertThat(events).startsWith(new ChatEvent.Token("Hel"), new ChatEvent.Token("lo"));
        assertThat(events.getLast())
                .isInstanceOfSatisfying(
                        ChatEvent.Finished.class,
                        f -> assertThat(f.usage().orElseThrow().completionTokens())
                                .isEqualTo(2));
    }

    @Test
    void anErrorLineMidStreamIsUnavailableSinceALocalModelBillsNothing() throws Exception {
        ollama.stubFor(post("/api/chat").willReturn(aResponse().withStatus(200).withBody("""
                {"message":{"role":"assistant","content":"Hel"},"done":false}
                {"error":"an error was encountered while running the model"}
                """)));
        List<ChatEvent> events = drain(adapter.stream(call()));
        assertThat(events.getLast())
                .isInstanceOfSatisfying(
                        ChatEvent.Failed.class, f -> assertThat(f.outcome()).isInstanceOf(Outcome.Unavailable.class));
    }

    @Test
    void aMissingModelMakesTheProviderUnusable() {
        ollama.stubFor(post("/api/chat")
                .willReturn(aResponse()
                        .withStatus(404)
                        .withBody("{\"error\":\"model \\\"x\\\" not found, try pulling it first\"}")));
        assertThat(((ChatReply.Failed) adapter.complete(call())).outcome())
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.unusable()).isTrue());
    }

    @Test
    void aMissingModelIsConfigurationAndBusyIsUnavailable() {
        ollama.stubFor(post("/api/chat")
                .willReturn(aResponse()
                        .withStatus(404)
                        .withBody("{\"error\":\"model \\\"x\\\" not found, try pulling it first\"}")));
        assertThat(((ChatReply.Failed) adapter.complete(call())).outcome())
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG));
        ollama.stubFor(
                post("/api/chat").willReturn(aResponse().withStatus(503).withBody("{\"error\":\"server busy\"}")));
        assertThat(((ChatReply.Failed) adapter.complete(call())).outcome()).isInstanceOf(Outcome.Unavailable.class);
    }

    @Test
    void healthChecksThatTheModelIsPulled() {
        ollama.stubFor(get("/api/tags")
                .willReturn(aResponse().withStatus(200).withBody("{\"models\":[{\"name\":\"llama3.2:latest\"}]}")));
        assertThat(adapter.health().healthy()).isTrue();
        ollama.stubFor(get("/api/tags").willReturn(aResponse().withStatus(200).withBody("{\"models\":[]}")));
        assertThat(adapter.health().healthy()).isFalse();
        assertThat(adapter.health().detail()).contains("llama3.2");
    }
}
