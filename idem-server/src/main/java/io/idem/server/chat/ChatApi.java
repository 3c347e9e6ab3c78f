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
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Feature;
import io.idem.server.http.IdempotencyKey;
import io.idem.server.http.Json;
import io.idem.server.http.KeyBudget;
import io.javalin.http.Context;
import java.io.IOException;
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
    private final InstantSource clock;

    ChatApi(
            ChatEngine engine,
            ChatRouting routing,
            ChatRequestReader reader,
            KeyBudget budget,
            ChatIdempotency idempotency,
            InstantSource clock) {
        this.engine = engine;
        this.routing = routing;
        this.reader = reader;
        this.budget = budget;
        this.idempotency = idempotency;
        this.clock = clock;
    }

    /** The route, authenticated by {@code auth}, reading bodies of up to {@code maxBytes}. */
    public Feature routes(Auth auth, long maxBytes) {
        return config -> config.routes.post(PATH, ctx -> complete(ctx, auth, maxBytes));
    }

    private void complete(Context ctx, Auth auth, long maxBytes) throws IOException {
        Caller caller = auth.require(ctx);
        String key = IdempotencyKey.from(ctx);
        JsonNode body = Json.readObject(ctx, maxBytes);
        ParsedCall call = reader.read(body, FailoverDefaultsJson.of(caller.key().failoverDefaults()));
        byte[] held = null;
        if (key != null) {
            byte[] digest = idempotency.digest(caller, key);
            switch (idempotency.claim(digest, caller, call.hash(), call.chain().deadline())) {
                case ChatIdempotencyStore.Claim.Claimed claimed -> held = digest;
                case ChatIdempotencyStore.Claim.Finished finished -> {
                    ChatReplay.replay(ctx, call, finished);
                    return;
                }
                case ChatIdempotencyStore.Claim.InUse inUse -> {
                    ctx.header("Retry-After", Long.toString(idempotency.retryAfterSeconds(inUse.lockedUntil())));
                    throw new ApiError(
                            409,
                            "idempotency_key_in_use",
                            "a call with this Idempotency-Key is still running; retry later");
                }
                case ChatIdempotencyStore.Claim.Reused reused ->
                    throw new ApiError(
                            409, "idempotency_key_reused", "this Idempotency-Key was used with a different request");
            }
        }
        ChatCaller chatCaller = new ChatCaller(
                UUID.randomUUID(),
                Optional.of(caller.key().id()),
                caller.owner(),
                call.lane(),
                routing.unconfirmed(call.lane()),
                call.simulate(),
                call.maxCostUsd(),
                caller.key().dailyBudgetUsd().isPresent()
                        || caller.key().monthlyBudgetUsd().isPresent());
        Optional<ChatIdempotency.Stored> stored = Optional.empty();
        try {
            // After the replay check: a replay is free, even for a key that has spent its budget.
            budget.check(caller, OPENAI_QUOTA);
            stored = call.stream() ? stream(ctx, call, chatCaller) : Optional.of(plain(ctx, call, chatCaller));
        } finally {
            if (held != null) {
                if (stored.isPresent()) {
                    idempotency.finish(held, stored.get());
                } else {
                    idempotency.release(held);
                }
            }
        }
    }

    private ChatIdempotency.Stored plain(Context ctx, ParsedCall call, ChatCaller caller) {
        ChainResult result = engine.complete(call.chain(), call.request(), caller);
        return switch (result) {
            case ChainResult.Served served -> {
                ObjectNode idem = ChatReport.body(
                        call.chain(),
                        Optional.of(served.model()),
                        served.attempts(),
                        Optional.empty(),
                        served.completion().degradationNotice());
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
                yield new ChatIdempotency.Stored(text, served.model().name(), attempts);
            }
            case ChainResult.Failed failed -> throw ChatFailures.error(ctx, call.chain(), failed);
        };
    }

    private Optional<ChatIdempotency.Stored> stream(Context ctx, ParsedCall call, ChatCaller caller) {
        StreamStart start = engine.stream(call.chain(), call.request(), caller);
        return switch (start) {
            case ChainResult.Failed failed -> throw ChatFailures.error(ctx, call.chain(), failed);
            case LockedStream locked -> {
                try (locked) {
                    yield new ChatStreamer(
                                    ctx,
                                    call,
                                    locked,
                                    id(caller),
                                    clock.instant().getEpochSecond())
                            .run();
                }
            }
        };
    }

    private static String id(ChatCaller caller) {
        return "chatcmpl-" + caller.callId().toString().replace("-", "");
    }
}
