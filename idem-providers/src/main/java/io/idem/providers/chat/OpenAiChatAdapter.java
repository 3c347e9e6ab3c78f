package io.idem.providers.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.chat.ChatAdapter;
import io.idem.core.chat.ChatCall;
import io.idem.core.chat.ChatCompletion;
import io.idem.core.chat.ChatEvent;
import io.idem.core.chat.ChatReply;
import io.idem.core.chat.ChatStream;
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
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adapter type {@code openai_chat}: {@code POST {base_url}/chat/completions} on OpenAI or any
 * OpenAI-compatible chat API (vendor-apis.md §2), plain or streaming (SSE, always asking for the
 * usage chunk, which the audit needs).
 *
 * <p>The caller's request fields pass through unchanged; only {@code model}, {@code stream} and
 * {@code stream_options} are this attempt's. The POST is tracked by a {@link SendTracker} and asks
 * for {@code 100 Continue} where the provider's {@code chat_expect_continue} is on: a connection lost
 * before the body left is {@code Unavailable}, one lost after (or, without {@code Expect}, any
 * connection lost once the body was handed over) is {@code Unconfirmed}; a stream that breaks before {@code [DONE]} or a clean end after its
 * {@code finish_reason} is {@code Unconfirmed} (billable unknown). A frame with an {@code error} key in a 200 stream is {@code Unconfirmed}
 * ({@code stream_error}). Never retried. Thread-safe.
 */
public final class OpenAiChatAdapter implements ChatAdapter {
    /** OpenAI's own base URL, for a provider configured without one. */
    public static final URI DEFAULT_BASE_URL = URI.create("https://api.openai.com/v1");

    static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(OpenAiChatAdapter.class);
    /** A message's (or delta's) fields Idem writes itself; the rest pass through. */
    private static final Set<String> MESSAGE_OWN = Set.of("role", "content");

    private final ProviderSettings settings;
    private final HttpClient client;
    private final UnaryOperator<String> environment;
    private final Redactor redactor;
    private final URI completions;
    private final URI health;
    private final boolean simulates;

    public OpenAiChatAdapter(ProviderSettings settings, HttpClient client) {
        this(settings, client, System::getenv, Redactor.shapesOnly());
    }

    /**
     * @param environment where the key is read ({@code System::getenv} in production)
     * @param redactor hides the node's secrets in whatever the vendor says
     */
    public OpenAiChatAdapter(
            ProviderSettings settings, HttpClient client, UnaryOperator<String> environment, Redactor redactor) {
        this(settings, client, environment, redactor, "/chat/completions", "/models", false);
    }

    /**
     * @param completionsPath appended to the base URL
     * @param simulates whether calls carry their {@code simulate} directive (the fake vendor only);
     *     such calls ask for {@code 100 Continue} unless the provider says otherwise, so that the fake
     *     vendor's refusals before the body stay never-sent
     */
    OpenAiChatAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            String completionsPath,
            String healthPath,
            boolean simulates) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.client = Objects.requireNonNull(client, "client");
        this.environment = Objects.requireNonNull(environment, "environment");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
        String base = settings.baseUrl().toString().replaceAll("/+$", "");
        this.completions = URI.create(base + completionsPath);
        this.health = URI.create(base + healthPath);
        this.simulates = simulates;
    }

    @Override
    public ChatReply complete(ChatCall call) {
        Credential credential = credential();
        if (credential instanceof Credential.Missing missing) {
            return new ChatReply.Failed(
                    new Outcome.Rejected(RejectionKind.CONFIG, "missing_credential", missing.reason(), 0, null));
        }
        SendTracker tracker = SendTracker.track(ChatJson.openAiBody(call, false));
        try {
            HttpRequest request = request(call, credential, tracker, "application/json");
            return switch (VendorExchange.send(client, request, tracker)) {
                case VendorExchange.Failed failed -> new ChatReply.Failed(failed.outcome());
                case VendorExchange.Answered answered -> read(answered.response(), credential, call);
            };
        } catch (RuntimeException e) {
            log.warn("{} adapter '{}' failed on {}", settings.adapter(), settings.name(), call.reference(), e);
            return new ChatReply.Failed(new Outcome.AdapterFault(
                    "chat adapter failed on " + call.reference() + ": "
                            + e.getClass().getSimpleName(),
                    tracker.bodyPulled()));
        }
    }

    @Override
    public ChatStream stream(ChatCall call) {
        Credential credential = credential();
        if (credential instanceof Credential.Missing missing) {
            return failedAtOnce(
                    new Outcome.Rejected(RejectionKind.CONFIG, "missing_credential", missing.reason(), 0, null));
        }
        SendTracker tracker = SendTracker.track(ChatJson.openAiBody(call, true));
        HttpRequest request = request(call, credential, tracker, "text/event-stream");
        VendorText text = VendorText.of(redactor, credential);
        return StreamingExchange.start(
                client,
                request,
                tracker,
                "x-request-id",
                (body, out, requestId) -> readStream(body, out, requestId, text),
                (status, body, requestId) -> asked(call, ChatErrors.classify(status, body, requestId, text)));
    }

    /**
     * A refusal the call's own {@code simulate} asked the fake vendor for says nothing about the
     * provider: it never closes it as unusable (the demo's visitors pick such faults per call).
     */
    private Outcome asked(ChatCall call, Outcome refusal) {
        if (simulates && call.simulate().isPresent() && refusal instanceof Outcome.Rejected r && r.unusable()) {
            return r.ofThisCallOnly();
        }
        return refusal;
    }

    @Override
    public HealthAnswer health() {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(health)
                    .version(HttpClient.Version.HTTP_1_1)
                    .timeout(HEALTH_TIMEOUT)
                    .GET();
            Credential credential = credential();
            if (credential instanceof Credential.Missing missing) {
                return new HealthAnswer(false, missing.reason());
            }
            return switch (VendorExchange.sendWithoutBody(
                    client, credential.applyTo(request).build())) {
                case VendorExchange.Failed failed -> new HealthAnswer(false, failed.detail());
                case VendorExchange.Answered answered ->
                    answered.response().statusCode() == 200
                            ? new HealthAnswer(true, "ok")
                            : new HealthAnswer(
                                    false,
                                    "health answered HTTP "
                                            + answered.response().statusCode());
            };
        } catch (RuntimeException e) {
            return new HealthAnswer(
                    false, "health probe failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    private HttpRequest request(ChatCall call, Credential credential, SendTracker tracker, String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(completions)
                .version(HttpClient.Version.HTTP_1_1)
                .timeout(call.timeout())
                // Off by default: chat fails over on an unconfirmed attempt anyway, and the round
                // trip for the 100 costs every call (docs/benchmarks.md). On, a connection lost
                // before the body left is told apart from one lost after.
                .expectContinue(settings.expectContinue().chat().orElse(simulates))
                .header("Content-Type", "application/json")
                .header("Accept", accept)
                .POST(tracker);
        if (simulates) {
            call.simulate().ifPresent(mode -> request.header("X-Idem-Simulate", mode));
        }
        return credential.applyTo(request).build();
    }

    private ChatReply read(HttpResponse<byte[]> response, Credential credential, ChatCall call) {
        String requestId = response.headers().firstValue("x-request-id").orElse(null);
        if (response.statusCode() != 200) {
            Outcome refusal = asked(
                    call,
                    ChatErrors.classify(
                            response.statusCode(), response.body(), requestId, VendorText.of(redactor, credential)));
            return new ChatReply.Failed(RetryAfter.onto(refusal, response));
        }
        Optional<JsonNode> root = ChatJson.parse(response.body());
        JsonNode choice = root.map(r -> r.path("choices").path(0)).orElse(ChatJson.MISSING);
        JsonNode content = choice.path("message").path("content");
        boolean toolCallsOnly =
                content.isMissingNode() && choice.path("message").has("tool_calls");
        if (!choice.isObject() || !(content.isTextual() || content.isNull() || toolCallsOnly)) {
            return new ChatReply.Failed(
                    new Outcome.Unavailable("malformed_response", "a 200 without a readable choice", 200, requestId));
        }
        String finish = ChatJson.text(choice, "finish_reason").orElse("stop");
        Optional<TokenUsage> usage = root.flatMap(r -> ChatJson.usage(r.path("usage")));
        Optional<String> id = Optional.ofNullable(requestId).or(() -> root.flatMap(r -> ChatJson.text(r, "id")));
        String passthrough = ChatJson.bundle(Map.of(
                "message", ChatJson.kept(choice.path("message"), MESSAGE_OWN),
                "logprobs", choice.path("logprobs"),
                "system_fingerprint", root.get().path("system_fingerprint")));
        return new ChatReply.Served(
                new ChatCompletion(content.asText(""), finish, usage, id, Optional.empty(), passthrough));
    }

    /**
     * Reads OpenAI's SSE frames into events. {@code [DONE]} ends the stream; so does a clean end of
     * the body after a {@code finish_reason} (some OpenAI-compatible servers never send {@code
     * [DONE]}). A body that ends without a finish is left to {@link StreamingExchange}: cut. Empty
     * data frames are keep-alives and skipped; a data frame that is not JSON fails the stream
     * ({@code malformed_stream}).
     */
    private static void readStream(InputStream body, QueuedChatStream out, String requestId, VendorText text)
            throws IOException {
        StreamState state = new StreamState(requestId);
        boolean stopped = SseLines.sse(body, data -> {
            if (out.closed()) {
                return false;
            }
            if (data.isBlank()) {
                return true;
            }
            if (data.equals("[DONE]")) {
                out.emit(state.end());
                return false;
            }
            Optional<JsonNode> chunk = ChatJson.parse(data);
            if (chunk.isEmpty()) {
                out.emit(new ChatEvent.Failed(
                        new Outcome.Unconfirmed("malformed_stream", "a stream frame that is not JSON", 200, state.id)));
                return false;
            }
            JsonNode frame = chunk.get();
            if (frame.has("error")) {
                String message = ChatJson.text(frame.path("error"), "message")
                        .map(text::safe)
                        .orElse("an error frame in the stream");
                out.emit(new ChatEvent.Failed(new Outcome.Unconfirmed("stream_error", message, 200, state.id)));
                return false;
            }
            state.take(frame).ifPresent(out::emit);
            return true;
        });
        if (!stopped && state.finishReason != null) {
            out.emit(state.end());
        }
    }

    /** What a stream said so far: its id, finish reason and usage. */
    private static final class StreamState {
        String id;
        String finishReason;
        Optional<TokenUsage> usage = Optional.empty();
        boolean content;

        StreamState(String requestId) {
            this.id = requestId;
        }

        Optional<ChatEvent> take(JsonNode frame) {
            if (id == null) {
                id = ChatJson.text(frame, "id").orElse(null);
            }
            usage = ChatJson.usage(frame.path("usage")).or(() -> usage);
            JsonNode choice = frame.path("choices").path(0);
            ChatJson.text(choice, "finish_reason").ifPresent(reason -> finishReason = reason);
            JsonNode text = choice.path("delta").path("content");
            String passthrough = ChatJson.bundle(Map.of(
                    "delta", ChatJson.kept(choice.path("delta"), MESSAGE_OWN), "logprobs", choice.path("logprobs")));
            if (text.isTextual() || !passthrough.isEmpty()) {
                content = true;
                return Optional.of(new ChatEvent.Token(text.asText(""), passthrough));
            }
            return Optional.empty();
        }

        ChatEvent end() {
            if (!content && finishReason == null) {
                return new ChatEvent.Failed(new Outcome.Unavailable(
                        "malformed_response", "the stream ended without content or a finish reason", 200, id));
            }
            return new ChatEvent.Finished(
                    finishReason == null ? "stop" : finishReason, usage, Optional.ofNullable(id), Optional.empty());
        }
    }

    private Credential credential() {
        return Credential.resolve(settings, environment);
    }

    static QueuedChatStream failedAtOnce(Outcome outcome) {
        return QueuedChatStream.of(java.util.List.of(new ChatEvent.Failed(outcome)));
    }
}
