package io.idem.providers.fake;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Writes the fake vendor's chat answers in OpenAI's shapes: a {@code chat.completion} body, or an
 * SSE stream of {@code chat.completion.chunk} frames ({@code data: …}, ending {@code data: [DONE]})
 * in chunked transfer encoding, so that a cut stream is visibly cut to the client.
 */
final class ChatWire {
    private static final Duration CUT_PAUSE = Duration.ofMillis(100);

    private final String id;
    private final ChatAsk ask;
    private final long created;
    private final boolean counts;

    /** @param counts whether the answer reports its usage (the {@code no_usage} mode's does not) */
    ChatWire(String id, ChatAsk ask, long created, boolean counts) {
        this.id = id;
        this.ask = ask;
        this.created = created;
        this.counts = counts;
    }

    /** The plain answer's body. */
    byte[] completion(List<String> tokens) {
        ObjectNode root = head("chat.completion");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", String.join("", tokens));
        choice.putNull("logprobs");
        choice.put("finish_reason", ask.finishReason());
        if (counts) {
            usage(root.putObject("usage"), tokens.size());
        }
        return VendorBodies.write(root);
    }

    /** One tool call the fake answers with: its id, tool name and arguments (in the fragments a stream sends). */
    record Call(String id, String name, List<String> fragments) {
        String arguments() {
            return String.join("", fragments);
        }
    }

    /** A call of {@code name} with the last user (or tool) message as its {@code text} argument. */
    Call toolCall(String name) {
        String arguments = new String(
                VendorBodies.write(VendorBodies.JSON.createObjectNode().put("text", ask.lastUserText())),
                StandardCharsets.UTF_8);
        int third = Math.max(1, arguments.length() / 3);
        List<String> fragments = List.of(
                arguments.substring(0, third),
                arguments.substring(third, Math.min(arguments.length(), 2 * third)),
                arguments.substring(Math.min(arguments.length(), 2 * third)));
        return new Call("call_" + id, name, fragments);
    }

    /** The plain answer that calls a tool: {@code content: null}, {@code finish_reason: tool_calls}. */
    byte[] toolCallCompletion(Call call) {
        ObjectNode root = head("chat.completion");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        message.putNull("content");
        message.putNull("refusal");
        ObjectNode tool = message.putArray("tool_calls").addObject();
        tool.put("id", call.id()).put("type", "function");
        tool.putObject("function").put("name", call.name()).put("arguments", call.arguments());
        choice.putNull("logprobs");
        choice.put("finish_reason", "tool_calls");
        root.put("system_fingerprint", "fp_fake");
        usage(root.putObject("usage"), call.fragments().size());
        return VendorBodies.write(root);
    }

    /**
     * Streams a tool call as OpenAI does: a role chunk, a delta with the call's index, id, type and
     * name, one delta per arguments fragment, the {@code tool_calls} finish, usage when asked for,
     * and {@code [DONE]}.
     */
    void writeToolCallStream(OutputStream out, Call call) throws IOException {
        writeHead(out, "text/event-stream", "Transfer-Encoding: chunked\r\nCache-Control: no-cache");
        ObjectNode role = delta().put("role", "assistant");
        role.putNull("content");
        frame(out, chunk(role, null));
        ObjectNode start = delta();
        ObjectNode opening = start.putArray("tool_calls").addObject();
        opening.put("index", 0).put("id", call.id()).put("type", "function");
        opening.putObject("function").put("name", call.name()).put("arguments", "");
        frame(out, chunk(start, null));
        for (String fragment : call.fragments()) {
            ObjectNode piece = delta();
            piece.putArray("tool_calls")
                    .addObject()
                    .put("index", 0)
                    .putObject("function")
                    .put("arguments", fragment);
            frame(out, chunk(piece, null));
        }
        frame(out, chunk(delta(), "tool_calls"));
        if (ask.includeUsage()) {
            ObjectNode last = head("chat.completion.chunk");
            last.putArray("choices");
            usage(last.putObject("usage"), call.fragments().size());
            frame(out, VendorBodies.write(last));
        }
        writeChunk(out, "data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** A {@code 200} that claims success and carries no choice: the {@code malformed} answer. */
    byte[] emptyCompletion() {
        ObjectNode root = head("chat.completion");
        root.putArray("choices");
        return VendorBodies.write(root);
    }

    /** Writes a whole plain answer. */
    void writeCompletion(OutputStream out, byte[] body) throws IOException {
        writeHead(out, "application/json", "Content-Length: " + body.length);
        out.write(body);
        out.flush();
    }

    /** Writes the plain answer's head and only the first half of its body, then stops. */
    void writeCutCompletion(OutputStream out, byte[] body) throws IOException {
        writeHead(out, "application/json", "Content-Length: " + body.length);
        out.write(body, 0, body.length / 2);
        out.flush();
    }

    /**
     * Streams the answer: a role chunk, then {@code firstTokenDelay}, then the tokens (all, or only
     * {@code cutAfter} of them and then nothing more), the finish chunk, the usage chunk when asked
     * for, and {@code [DONE]} when {@code sayDone} (else an SSE comment and the clean end of the
     * body, as some OpenAI-compatible servers end their streams).
     */
    void writeStream(OutputStream out, List<String> tokens, Duration firstTokenDelay, int cutAfter, boolean sayDone)
            throws IOException, InterruptedException {
        writeStream(out, tokens, firstTokenDelay, cutAfter, sayDone, Duration.ZERO, Duration.ZERO);
    }

    /**
     * A whole stream paced: {@code afterFirst} of silence after the first content token (a stall),
     * {@code between} before every later one (a slow, steady stream).
     */
    void writePacedStream(OutputStream out, List<String> tokens, Duration afterFirst, Duration between)
            throws IOException, InterruptedException {
        writeStream(out, tokens, Duration.ZERO, -1, true, afterFirst, between);
    }

    private void writeStream(
            OutputStream out,
            List<String> tokens,
            Duration firstTokenDelay,
            int cutAfter,
            boolean sayDone,
            Duration afterFirst,
            Duration between)
            throws IOException, InterruptedException {
        writeHead(out, "text/event-stream", "Transfer-Encoding: chunked\r\nCache-Control: no-cache");
        frame(out, chunk(delta().put("role", "assistant").put("content", ""), null));
        out.flush();
        if (!firstTokenDelay.isZero()) {
            Thread.sleep(firstTokenDelay);
        }
        for (int i = 0; i < tokens.size(); i++) {
            if (i == cutAfter) {
                cut(out);
                return;
            }
            Duration pause = i == 1 ? afterFirst.plus(between) : i > 1 ? between : Duration.ZERO;
            if (!pause.isZero()) {
                Thread.sleep(pause);
            }
            frame(out, chunk(delta().put("content", tokens.get(i)), null));
            out.flush();
        }
        if (cutAfter >= 0 && cutAfter >= tokens.size()) {
            cut(out);
            return;
        }
        frame(out, chunk(delta(), ask.finishReason()));
        if (ask.includeUsage() && counts) {
            ObjectNode last = head("chat.completion.chunk");
            last.putArray("choices");
            usage(last.putObject("usage"), tokens.size());
            frame(out, VendorBodies.write(last));
        }
        String end = sayDone ? "data: [DONE]\n\n" : ": keep-alive\n\ndata:\n\n";
        writeChunk(out, end.getBytes(StandardCharsets.UTF_8));
        out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /**
     * Ends a stream early: what was sent is flushed and given a moment to arrive before the
     * connection closes, since an HTTP client may drop data it had not handed over yet when it
     * learns of the failure (the JDK's does).
     */
    private static void cut(OutputStream out) throws IOException, InterruptedException {
        out.flush();
        Thread.sleep(CUT_PAUSE);
    }

    /** The {@code malformed} stream: a chunk without choices, then {@code [DONE]}. */
    void writeEmptyStream(OutputStream out) throws IOException {
        writeHead(out, "text/event-stream", "Transfer-Encoding: chunked\r\nCache-Control: no-cache");
        ObjectNode chunk = head("chat.completion.chunk");
        chunk.putArray("choices");
        frame(out, VendorBodies.write(chunk));
        writeChunk(out, "data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private ObjectNode head(String object) {
        ObjectNode root = VendorBodies.JSON.createObjectNode();
        root.put("id", id).put("object", object).put("created", created).put("model", ask.model());
        return root;
    }

    private static ObjectNode delta() {
        return VendorBodies.JSON.createObjectNode();
    }

    private byte[] chunk(ObjectNode delta, String finishReason) {
        ObjectNode root = head("chat.completion.chunk");
        ArrayNode choices = root.putArray("choices");
        ObjectNode choice = choices.addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return VendorBodies.write(root);
    }

    private void usage(ObjectNode usage, long completionTokens) {
        usage.put("prompt_tokens", ask.promptTokens())
                .put("completion_tokens", completionTokens)
                .put("total_tokens", ask.promptTokens() + completionTokens);
    }

    private static void frame(OutputStream out, byte[] json) throws IOException {
        byte[] prefix = "data: ".getBytes(StandardCharsets.UTF_8);
        byte[] suffix = "\n\n".getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[prefix.length + json.length + suffix.length];
        System.arraycopy(prefix, 0, all, 0, prefix.length);
        System.arraycopy(json, 0, all, prefix.length, json.length);
        System.arraycopy(suffix, 0, all, prefix.length + json.length, suffix.length);
        writeChunk(out, all);
    }

    private static void writeChunk(OutputStream out, byte[] data) throws IOException {
        out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(data);
        out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
    }

    private void writeHead(OutputStream out, String contentType, String framing) throws IOException {
        String head = "HTTP/1.1 200 OK\r\nContent-Type: " + contentType + "\r\n" + framing + "\r\nX-Request-Id: " + id
                + "\r\nConnection: close\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
    }
}
