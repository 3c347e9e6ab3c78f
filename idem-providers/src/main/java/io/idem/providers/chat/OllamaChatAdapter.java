package io.idem.providers.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.chat.ChatAdapter;
import io.idem.core.chat.ChatCall;
import io.idem.core.chat.ChatCompletion;
import io.idem.core.chat.ChatEvent;
import io.idem.core.chat.ChatReply;
import io.idem.core.chat.ChatStream;
import io.idem.core.chat.ContextLength;
import io.idem.core.chat.TokenUsage;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.text.Redactor;
import io.idem.providers.http.Credential;
import io.idem.providers.http.RetryAfter;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorText;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adapter type {@code ollama}: {@code POST {base_url}/api/chat}, streaming NDJSON (vendor-apis.md
 * §5); {@code GET /api/tags} is the health check and also confirms every configured model is
 * pulled. Mapping: 404 (model missing) and 401/403 are configuration, 400 the request's fault,
 * 429/5xx and an error line in the stream unavailable (a local model bills nothing), a line with
 * {@code done: true} the end. The request is mapped by {@link OllamaBodies}; Ollama's tool calls
 * come back in OpenAI's shape (ids {@code call_<n>}, arguments as JSON text, finish {@code
 * tool_calls}). Thread-safe.
 */
public final class OllamaChatAdapter implements ChatAdapter {
    public static final URI DEFAULT_BASE_URL = URI.create("http://127.0.0.1:11434");
    static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(OllamaChatAdapter.class);

    private final ProviderSettings settings;
    private final HttpClient client;
    private final UnaryOperator<String> environment;
    private final Redactor redactor;
    private final Collection<String> models;
    private final URI chat;
    private final URI tags;

    /** @param models the vendor model ids this provider must have pulled to be healthy */
    public OllamaChatAdapter(ProviderSettings settings, HttpClient client, Collection<String> models) {
        this(settings, client, models, System::getenv, Redactor.shapesOnly());
    }

    /**
     * @param environment where the key is read, if the provider names one ({@code System::getenv} in
     *     production)
     * @param redactor hides the node's secrets in whatever Ollama says
     */
    public OllamaChatAdapter(
            ProviderSettings settings,
            HttpClient client,
            Collection<String> models,
            UnaryOperator<String> environment,
            Redactor redactor) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.client = Objects.requireNonNull(client, "client");
        this.models = List.copyOf(models);
        this.environment = Objects.requireNonNull(environment, "environment");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
        String base = settings.baseUrl().toString().replaceAll("/+$", "");
        this.chat = URI.create(base + "/api/chat");
        this.tags = URI.create(base + "/api/tags");
    }

    @Override
    public ChatReply complete(ChatCall call) {
        Credential credential = Credential.resolve(settings, environment);
        if (credential instanceof Credential.Missing missing) {
            return new ChatReply.Failed(
                    new Outcome.Rejected(RejectionKind.CONFIG, "missing_credential", missing.reason(), 0, null));
        }
        SendTracker tracker = SendTracker.track(OllamaBodies.body(call, false));
        try {
            return switch (VendorExchange.send(client, request(call, credential, tracker), tracker)) {
                case VendorExchange.Failed failed -> new ChatReply.Failed(failed.outcome());
                case VendorExchange.Answered answered -> read(answered.response(), VendorText.of(redactor, credential));
            };
        } catch (RuntimeException e) {
            log.warn("ollama adapter '{}' failed on {}", settings.name(), call.reference(), e);
            return new ChatReply.Failed(new Outcome.AdapterFault(
                    "ollama adapter failed on " + call.reference() + ": "
                            + e.getClass().getSimpleName(),
                    tracker.bodyPulled()));
        }
    }

    @Override
    public ChatStream stream(ChatCall call) {
        Credential credential = Credential.resolve(settings, environment);
        if (credential instanceof Credential.Missing missing) {
            return OpenAiChatAdapter.failedAtOnce(
                    new Outcome.Rejected(RejectionKind.CONFIG, "missing_credential", missing.reason(), 0, null));
        }
        SendTracker tracker = SendTracker.track(OllamaBodies.body(call, true));
        VendorText text = VendorText.of(redactor, credential);
        return StreamingExchange.start(
                client,
                request(call, credential, tracker),
                tracker,
                "x-request-id",
                (body, out, requestId) -> readStream(body, out, requestId, text),
                (status, body, requestId) -> classify(status, body, text));
    }

    @Override
    public java.util.Optional<String> unhonoured(io.idem.core.chat.ChatRequest request) {
        return OllamaBodies.unhonoured(request);
    }

    @Override
    public HealthAnswer health() {
        try {
            HttpRequest request = HttpRequest.newBuilder(tags)
                    .version(HttpClient.Version.HTTP_1_1)
                    .timeout(HEALTH_TIMEOUT)
                    .GET()
                    .build();
            return switch (VendorExchange.sendWithoutBody(client, request)) {
                case VendorExchange.Failed failed -> new HealthAnswer(false, failed.detail());
                case VendorExchange.Answered answered -> tagsAnswer(answered.response());
            };
        } catch (RuntimeException e) {
            return new HealthAnswer(
                    false, "health probe failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    private HealthAnswer tagsAnswer(HttpResponse<byte[]> response) {
        if (response.statusCode() != 200) {
            return new HealthAnswer(false, "/api/tags answered HTTP " + response.statusCode());
        }
        JsonNode pulled =
                ChatJson.parse(response.body()).map(r -> r.path("models")).orElse(ChatJson.MISSING);
        for (String model : models) {
            boolean present = false;
            for (JsonNode entry : pulled) {
                String name = entry.path("name").asText("");
                present |= name.equals(model) || name.equals(model + ":latest");
            }
            if (!present) {
                return new HealthAnswer(false, "model '" + model + "' is not pulled");
            }
        }
        return new HealthAnswer(true, "ok");
    }

    private HttpRequest request(ChatCall call, Credential credential, SendTracker tracker) {
        HttpRequest.Builder request = HttpRequest.newBuilder(chat)
                .version(HttpClient.Version.HTTP_1_1)
                .timeout(call.timeout())
                .expectContinue(settings.expectContinue().chat().orElse(false))
                .header("Content-Type", "application/json")
                .POST(tracker);
        return credential.applyTo(request).build();
    }

    private static ChatReply read(HttpResponse<byte[]> response, VendorText text) {
        if (response.statusCode() != 200) {
            return new ChatReply.Failed(
                    RetryAfter.onto(classify(response.statusCode(), response.body(), text), response));
        }
        Optional<JsonNode> root = ChatJson.parse(response.body());
        JsonNode content = root.map(r -> r.path("message").path("content")).orElse(ChatJson.MISSING);
        if (root.isEmpty() || !content.isTextual() || !root.get().path("done").asBoolean(false)) {
            return new ChatReply.Failed(
                    new Outcome.Unavailable("malformed_response", "a 200 without a finished message", 200, null));
        }
        JsonNode last = root.get();
        JsonNode toolCalls = last.path("message").path("tool_calls");
        boolean calls = toolCalls.isArray() && !toolCalls.isEmpty();
        String passthrough = calls
                ? ChatJson.bundle(Map.of(
                        "message",
                        ChatJson.MAPPER
                                .createObjectNode()
                                .set("tool_calls", OllamaBodies.openAiToolCalls(toolCalls, 0, false))))
                : "";
        return new ChatReply.Served(new ChatCompletion(
                content.asText(),
                calls ? "tool_calls" : ChatJson.text(last, "done_reason").orElse("stop"),
                Optional.of(usage(last)),
                Optional.empty(),
                Optional.empty(),
                passthrough));
    }

    private static void readStream(InputStream body, QueuedChatStream out, String requestId, VendorText text)
            throws IOException {
        int[] toolCallsSeen = {0};
        SseLines.ndjson(body, line -> {
            if (out.closed()) {
                return false;
            }
            Optional<JsonNode> parsed = ChatJson.parse(line);
            if (parsed.isEmpty()) {
                out.emit(new ChatEvent.Failed(
                        new Outcome.Unavailable("malformed_stream", "a stream line that is not JSON", 200, requestId)));
                return false;
            }
            JsonNode chunk = parsed.get();
            if (chunk.has("error")) {
                // A local model bills nothing: a mid-stream error is unavailable (vendor-apis.md §5).
                out.emit(new ChatEvent.Failed(new Outcome.Unavailable(
                        "stream_error",
                        text.safe(chunk.path("error").asText("an error line in the stream")),
                        200,
                        requestId)));
                return false;
            }
            JsonNode content = chunk.path("message").path("content");
            JsonNode toolCalls = chunk.path("message").path("tool_calls");
            String passthrough = "";
            if (toolCalls.isArray() && !toolCalls.isEmpty()) {
                ObjectNode delta = ChatJson.MAPPER.createObjectNode();
                delta.set("tool_calls", OllamaBodies.openAiToolCalls(toolCalls, toolCallsSeen[0], true));
                toolCallsSeen[0] += toolCalls.size();
                passthrough = ChatJson.bundle(Map.of("delta", delta));
            }
            if ((content.isTextual() && !content.asText().isEmpty()) || !passthrough.isEmpty()) {
                out.emit(new ChatEvent.Token(content.asText(""), passthrough));
            }
            if (chunk.path("done").asBoolean(false)) {
                out.emit(new ChatEvent.Finished(
                        toolCallsSeen[0] > 0
                                ? "tool_calls"
                                : ChatJson.text(chunk, "done_reason").orElse("stop"),
                        Optional.of(usage(chunk)),
                        Optional.ofNullable(requestId),
                        Optional.empty()));
                return false;
            }
            return true;
        });
    }

    private static TokenUsage usage(JsonNode last) {
        return new TokenUsage(
                Math.max(0, last.path("prompt_eval_count").asLong(0)),
                Math.max(0, last.path("eval_count").asLong(0)));
    }

    static Outcome classify(int status, byte[] body, VendorText text) {
        String error =
                ChatJson.parse(body).flatMap(r -> ChatJson.text(r, "error")).orElse("HTTP " + status);
        String message = text.safe(error);
        String code = "http_" + status;
        if ((status == 400 || status == 413 || status == 500) && ContextLength.refused(code, error)) {
            // Ollama says "the input length exceeds the context length" (and the like) in its error text
            return new Outcome.Rejected(RejectionKind.USER_ERROR, ContextLength.CODE, message, status, null);
        }
        return switch (status) {
            case 400 -> new Outcome.Rejected(RejectionKind.USER_ERROR, code, message, status, null);
            // credentials refused, or the model is not pulled: this Ollama cannot serve us
            case 401, 403, 404 -> Outcome.Rejected.unusable(code, message, status, null);
            default -> new Outcome.Unavailable(code, message, status, null);
        };
    }
}
