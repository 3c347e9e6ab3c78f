package io.idem.server.chat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.chat.ChatCompletion;
import io.idem.core.chat.ChatModel;
import io.idem.core.chat.LockedStream;
import io.idem.core.chat.StreamPiece;
import io.idem.core.spi.ChatIdempotencyStore;
import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one locked stream to the client as OpenAI's SSE frames: a role chunk carrying the report so
 * far, the content chunks, a finish chunk with the final report, the usage chunk when asked for, and
 * {@code data: [DONE]}. A failure after the first token is an explicit error frame and no {@code
 * [DONE]}: the client must never take a broken answer for a complete one. With {@code mid_stream:
 * continue}, a model that takes over is announced by a chunk with an empty delta and {@code
 * idem.stream_switch} (its {@code restarted}: the client must drop what it has). A client that
 * leaves ends the vendor call (recorded as unconfirmed by the locked stream).
 */
final class ChatStreamer {
    private static final Logger log = LoggerFactory.getLogger(ChatStreamer.class);

    private final Context ctx;
    private final ParsedCall call;
    private final LockedStream locked;
    private final String id;
    private final long created;
    private ChatModel model;
    private final StringBuilder text = new StringBuilder();
    private StreamedToolCalls toolCalls = new StreamedToolCalls();

    ChatStreamer(Context ctx, ParsedCall call, LockedStream locked, String id, long created) {
        this.ctx = ctx;
        this.call = call;
        this.locked = locked;
        this.id = id;
        this.created = created;
        this.model = locked.model();
    }

    /** Streams to the end; the answer as it is kept for replay when it completed, else empty. */
    Optional<ChatIdempotencyStore.Answer> run() {
        HttpServletResponse res = ctx.res();
        res.setStatus(200);
        res.setContentType("text/event-stream;charset=utf-8");
        res.setHeader("Cache-Control", "no-cache");
        res.setHeader("X-Accel-Buffering", "no");
        res.setHeader("Idem-Served-Model", model.name());
        if (call.chain().multiModel()) {
            res.setHeader("Idem-Attempts", ChatReport.header(locked.earlierAttempts(), Optional.of(model)));
        }
        try {
            SseFrames frames = new SseFrames(res.getOutputStream());
            ObjectNode first = ChatBodies.chunk(
                    id,
                    created,
                    model,
                    ChatBodies.delta().put("role", "assistant").put("content", ""),
                    null,
                    call.includeUsage());
            first.set(
                    "idem",
                    ChatReport.body(
                            call.chain(),
                            Optional.empty(),
                            locked.earlierAttempts(),
                            Optional.of(model),
                            Optional.empty()));
            frames.data(first);
            while (true) {
                switch (locked.next()) {
                    case StreamPiece.Text piece -> {
                        text.append(piece.text());
                        ObjectNode chunk = ChatBodies.piece(id, created, model, piece, call.includeUsage());
                        toolCalls.take(
                                chunk.path("choices").path(0).path("delta").path("tool_calls"));
                        frames.data(chunk);
                    }
                    case StreamPiece.Switched switched -> frames.data(switchTo(switched));
                    case StreamPiece.Done done -> {
                        return Optional.of(finish(frames, done));
                    }
                    case StreamPiece.Broken broken -> {
                        frames.data(errorFrame(broken));
                        return Optional.empty();
                    }
                }
            }
        } catch (IOException e) {
            log.debug("a chat stream's client left: {}", e.toString());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private ChatIdempotencyStore.Answer finish(SseFrames frames, StreamPiece.Done done) throws IOException {
        ObjectNode idem = ChatReport.body(
                call.chain(), Optional.of(model), done.attempts(), Optional.empty(), done.degradationNotice());
        ChatReport.labelEstimate(idem, done.usage());
        ObjectNode last =
                ChatBodies.chunk(id, created, model, ChatBodies.delta(), done.finishReason(), call.includeUsage());
        last.set("idem", idem);
        frames.data(last);
        if (call.includeUsage()) {
            frames.data(ChatBodies.usageChunk(id, created, model, done.usage()));
        }
        frames.done();
        ChatCompletion completion = new ChatCompletion(
                text.toString(),
                done.finishReason(),
                Optional.of(done.usage()),
                Optional.empty(),
                done.degradationNotice(),
                toolCalls.isEmpty() ? "" : storedPassthrough());
        ObjectNode stored = ChatBodies.completion(id, created, model, completion, done.usage(), idem);
        String attempts = call.chain().multiModel() ? ChatReport.header(done.attempts(), Optional.empty()) : "";
        return new ChatIdempotencyStore.Answer(200, stored.toString(), model.name(), attempts);
    }

    /**
     * The chunk that announces the next model; after a restart the answer kept for replay starts
     * over with it.
     */
    private ObjectNode switchTo(StreamPiece.Switched switched) {
        ObjectNode delta = ChatBodies.delta();
        if (switched.restarted()) {
            text.setLength(0);
            toolCalls = new StreamedToolCalls();
            delta.put("role", "assistant").put("content", "");
        }
        ObjectNode chunk = ChatBodies.chunk(id, created, switched.to(), delta, null, call.includeUsage());
        chunk.putObject("idem")
                .putObject("stream_switch")
                .put("from", model.name())
                .put("to", switched.to().name())
                .put("restarted", switched.restarted())
                .put("reason", ChatReport.code(switched.cause()));
        model = switched.to();
        return chunk;
    }

    /** The merged tool calls, as the stored answer's message passes them through. */
    private String storedPassthrough() {
        ObjectNode passthrough = ChatBodies.delta();
        passthrough.putObject("message").set("tool_calls", toolCalls.calls());
        return passthrough.toString();
    }

    private ObjectNode errorFrame(StreamPiece.Broken broken) {
        ObjectNode frame = ChatBodies.delta();
        ObjectNode error = frame.putObject("error");
        String code = ChatReport.code(broken.outcome());
        error.put(
                        "message",
                        "the stream from " + model.name() + " broke after it started (" + code
                                + "); the answer is incomplete")
                .put("type", "server_error")
                .put("code", "stream_interrupted")
                .putNull("param");
        error.set(
                "idem",
                ChatReport.body(
                        call.chain(), Optional.of(model), broken.attempts(), Optional.empty(), Optional.empty()));
        return frame;
    }
}
