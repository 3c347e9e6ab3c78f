package io.idem.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.spi.ChatIdempotencyStore;
import io.idem.server.http.ApiErrors;
import io.idem.server.http.Json;
import io.idem.server.http.RetryAdvice;
import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Replays a finished call for a repeated key with header {@code Idempotent-Replayed: true} and the
 * first request's {@code X-Request-Id}: the stored body as it was, with its status, or, when the
 * repeat asks for a stream of a served answer, the same answer as SSE frames (the whole text in one
 * content chunk, its tool calls in one more). A kept failure is never worth an automatic retry: it
 * already called the models.
 */
final class ChatReplay {
    private ChatReplay() {}

    static void replay(Context ctx, ParsedCall call, ChatIdempotencyStore.Claim.Finished finished) throws IOException {
        ChatIdempotencyStore.Answer answer = finished.answer();
        ApiErrors.replayRequestId(ctx, finished.requestId().orElse(null));
        ctx.header("Idempotent-Replayed", "true");
        if (answer.servedModel() != null) {
            ctx.header("Idem-Served-Model", answer.servedModel());
        }
        if (answer.attempts() != null && !answer.attempts().isEmpty()) {
            ctx.header("Idem-Attempts", answer.attempts());
        }
        if (answer.status() != 200) {
            RetryAdvice.NEVER.apply(ctx);
        }
        if (!call.stream() || answer.status() != 200) {
            ctx.status(answer.status()).contentType("application/json").result(answer.response());
            return;
        }
        JsonNode stored = Json.MAPPER.readTree(answer.response());
        HttpServletResponse res = ctx.res();
        res.setStatus(200);
        res.setContentType("text/event-stream;charset=utf-8");
        res.setHeader("Cache-Control", "no-cache");
        SseFrames frames = new SseFrames(res.getOutputStream());
        JsonNode choice = stored.path("choices").path(0);
        frames.data(chunk(
                stored, Json.MAPPER.createObjectNode().put("role", "assistant").put("content", ""), null, call));
        frames.data(chunk(
                stored,
                Json.MAPPER
                        .createObjectNode()
                        .put("content", choice.path("message").path("content").asText("")),
                null,
                call));
        JsonNode toolCalls = choice.path("message").path("tool_calls");
        if (toolCalls.isArray() && !toolCalls.isEmpty()) {
            frames.data(chunk(stored, toolCallsDelta(toolCalls), null, call));
        }
        ObjectNode last = chunk(
                stored,
                Json.MAPPER.createObjectNode(),
                choice.path("finish_reason").asText("stop"),
                call);
        last.set("idem", stored.path("idem"));
        frames.data(last);
        if (call.includeUsage()) {
            ObjectNode usage = head(stored);
            usage.putArray("choices");
            usage.set("usage", stored.path("usage"));
            frames.data(usage);
        }
        frames.done();
    }

    /** A stored message's whole tool calls as one delta, each with its index. */
    private static ObjectNode toolCallsDelta(JsonNode toolCalls) {
        ObjectNode delta = Json.MAPPER.createObjectNode();
        var indexed = delta.putArray("tool_calls");
        for (int i = 0; i < toolCalls.size(); i++) {
            indexed.addObject().put("index", i).setAll((ObjectNode) toolCalls.get(i));
        }
        return delta;
    }

    private static ObjectNode chunk(JsonNode stored, ObjectNode delta, String finish, ParsedCall call) {
        ObjectNode chunk = head(stored);
        ObjectNode choice = chunk.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finish == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finish);
        }
        if (call.includeUsage()) {
            chunk.putNull("usage");
        }
        return chunk;
    }

    private static ObjectNode head(JsonNode stored) {
        return Json.MAPPER
                .createObjectNode()
                .put("id", stored.path("id").asText())
                .put("object", "chat.completion.chunk")
                .put("created", stored.path("created").asLong())
                .put("model", stored.path("model").asText());
    }
}
