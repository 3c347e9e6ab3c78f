package io.idem.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.chat.ChainResult;
import io.idem.core.chat.ChatCaller;
import io.idem.core.chat.ChatEngine;
import io.idem.core.chat.ChatRouting;
import io.idem.core.chat.LockedStream;
import io.idem.core.chat.StreamStart;
import io.idem.core.spi.ChatIdempotencyStore;
import io.idem.server.http.ApiError;
import io.idem.server.http.ApiErrors;
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Feature;
import io.idem.server.http.IdempotencyKey;
import io.idem.server.http.Json;
import io.idem.server.http.KeyBudget;
import io.javalin.http.Context;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code POST /v1/chat/completions} (DESIGN §5): OpenAI-compatible, plain and streaming, with
 * failover chains, the failover report, key budgets and an optional {@code Idempotency-Key} whose
 * finished answer is replayed. Thread-safe; each call runs on its request's virtual thread.
 */
public final class ChatApi {
    static final String PATH = "/v1/chat/completions";
    /** A spent key budget as OpenAI clients know it. */
    private static final Map<String, Object> OPENAI_QUOTA = Map.of("type", "insufficient_quota");

    private final ChatEngine engine;
    private final ChatRouting routing;
    private final ChatRequestReader reader;
    private final KeyBudget budget;
    private final ChatIdempotency idempotency;
    private final ChatFailures failures;
    private final InstantSource clock;
    private final ChatTimings timings;
    private final TrafficRecorder traffic;

    ChatApi(
            ChatEngine engine,
            ChatRouting routing,
            ChatRequestReader reader,
            KeyBudget budget,
            ChatIdempotency idempotency,
            ChatFailures failures,
            InstantSource clock,
            ChatTimings timings,
            TrafficRecorder traffic) {
        this.traffic = traffic;
        this.engine = engine;
        this.routing = routing;
        this.reader = reader;
        this.budget = budget;
        this.idempotency = idempotency;
        this.failures = failures;
        this.clock = clock;
        this.timings = timings;
    }

    /** The route, authenticated by {@code auth}, reading bodies of up to {@code maxBytes}. */
    public Feature routes(Auth auth, long maxBytes) {
        return config -> config.routes.post(PATH, ctx -> complete(ctx, auth, maxBytes));
    }

    private void complete(Context ctx, Auth auth, long maxBytes) throws IOException {
        long started = System.nanoTime();
        Caller caller = auth.require(ctx);
        String key = IdempotencyKey.from(ctx);
        JsonNode body = Json.readObject(ctx, maxBytes);
        ParsedCall call = reader.read(body, FailoverDefaultsJson.of(caller.key().failoverDefaults()));
        Optional<ChatIdempotency.Hold> hold;
        switch (idempotency.enter(ctx, caller, key, call)) {
            case ChatIdempotency.Entry.Replay replay -> {
                ChatReplay.replay(ctx, call, replay.finished());
                return;
            }
            case ChatIdempotency.Entry.Run run -> hold = run.hold();
        }
        ChatCaller chatCaller = caller(
                call,
                Optional.of(caller.key().id()),
                caller.owner(),
                caller.key().dailyBudgetUsd().isPresent()
                        || caller.key().monthlyBudgetUsd().isPresent());
        Optional<ChatIdempotencyStore.Answer> answer = Optional.empty();
        try {
            // After the replay check: a replay is free, even for a key that has spent its budget.
            budget.check(caller, OPENAI_QUOTA);
            answer = Optional.of(call.stream() ? stream(ctx, call, chatCaller) : plain(ctx, call, chatCaller, started));
        } finally {
            Optional<ChatIdempotencyStore.Answer> ended = answer;
            hold.ifPresent(h -> idempotency.end(h, ended));
        }
        answer.ifPresent(served -> traffic.answered(call.request(), served));
    }

    private ChatCaller caller(ParsedCall call, Optional<UUID> keyId, String owner, boolean keyBudgeted) {
        return new ChatCaller(
                UUID.randomUUID(),
                keyId,
                owner,
                call.lane(),
                routing.unconfirmed(call.lane()),
                call.simulate(),
                call.maxCostUsd(),
                keyBudgeted);
    }

    /**
     * A plain call made in process for {@code owner} (the embedding API): {@code body} is read as
     * the route reads it (chain, vendor fields, {@code simulate}, {@code max_cost_usd}) and runs on
     * the same engine, breakers and audit; there is no key, so no key defaults, budget or replay.
     *
     * @throws ApiError 400 as the route would answer the body, and for {@code stream: true} (an
     *     in-process call is plain)
     */
    public ChainResult call(JsonNode body, String owner) {
        long started = System.nanoTime();
        ParsedCall call = reader.read(body, Optional.empty());
        if (call.stream()) {
            throw ApiError.badRequest("stream_not_supported", "an in-process chat call is plain; stream must be false");
        }
        ChainResult result =
                engine.complete(call.chain(), call.request(), caller(call, Optional.empty(), owner, false));
        timings.ended(Duration.ofNanos(System.nanoTime() - started), result.attempts());
        return result;
    }

    private ChatIdempotencyStore.Answer plain(Context ctx, ParsedCall call, ChatCaller caller, long started) {
        ChainResult result = engine.complete(call.chain(), call.request(), caller);
        timings.ended(Duration.ofNanos(System.nanoTime() - started), result.attempts());
        return switch (result) {
            case ChainResult.Served served -> {
                ObjectNode idem = ChatReport.body(
                        call.chain(),
                        Optional.of(served.model()),
                        served.attempts(),
                        Optional.empty(),
                        served.completion().degradationNotice());
                ChatReport.labelEstimate(
                        idem, served.attempts().getLast().result().usage());
                ObjectNode response = ChatBodies.completion(
                        id(caller),
                        clock.instant().getEpochSecond(),
                        served.model(),
                        served.completion(),
                        served.attempts().getLast().result().usage(),
                        idem);
                String attempts =
                        call.chain().multiModel() ? ChatReport.header(served.attempts(), Optional.empty()) : "";
                ctx.header("Idem-Served-Model", served.model().name());
                if (!attempts.isEmpty()) {
                    ctx.header("Idem-Attempts", attempts);
                }
                String text = response.toString();
                ctx.status(200).contentType("application/json").result(text);
                yield new ChatIdempotencyStore.Answer(200, text, served.model().name(), attempts);
            }
            case ChainResult.Failed failed -> failure(ctx, call, failed);
        };
    }

    /**
     * A chain that failed: answered here and kept (for an implicit key) once a model was called;
     * thrown, and so never kept, when nothing was called and a retry may well be served.
     */
    private ChatIdempotencyStore.Answer failure(Context ctx, ParsedCall call, ChainResult.Failed failed) {
        ApiError error = failures.error(ctx, call.chain(), failed);
        if (failed.attempts().stream().noneMatch(ChatFailures::sent)) {
            throw error;
        }
        ApiErrors.render(ctx, error);
        String attempts = call.chain().multiModel() ? ChatReport.header(failed.attempts(), Optional.empty()) : "";
        return new ChatIdempotencyStore.Answer(error.status(), ApiErrors.body(ctx, error), null, attempts);
    }

    /** A stream that broke or lost its client after it began: what a retry of it is told. */
    private static ChatIdempotencyStore.Answer interrupted(Context ctx) {
        ApiError error = new ApiError(
                502,
                "stream_interrupted",
                "the streamed answer to this call broke off after it began; it is neither replayed nor called again");
        return new ChatIdempotencyStore.Answer(502, ApiErrors.body(ctx, error), null, "");
    }

    private ChatIdempotencyStore.Answer stream(Context ctx, ParsedCall call, ChatCaller caller) {
        StreamStart start = engine.stream(call.chain(), call.request(), caller);
        return switch (start) {
            case ChainResult.Failed failed -> failure(ctx, call, failed);
            case LockedStream locked -> {
                try (locked) {
                    yield new ChatStreamer(
                                    ctx,
                                    call,
                                    locked,
                                    id(caller),
                                    clock.instant().getEpochSecond())
                            .run()
                            .orElseGet(() -> interrupted(ctx));
                }
            }
        };
    }

    private static String id(ChatCaller caller) {
        return "chatcmpl-" + caller.callId().toString().replace("-", "");
    }
}
