package io.idem.providers.fake;

import io.idem.providers.fake.VendorBodies.ErrorBody;
import io.idem.providers.fake.VendorBodies.ErrorDetail;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

/**
 * {@code POST /v1/chat/completions}, plain and {@code stream: true}, in OpenAI's shapes, acting out
 * the fault named in {@code X-Idem-Simulate} (DESIGN §5). What each mode bills is the point, as for
 * images: everything that reads the request and starts generating is on the invoice ({@code ok},
 * {@code timeout}, {@code disconnect}, {@code stream_cut:N} for its N tokens, the delays); refusals
 * and the {@code malformed} answer are not.
 */
final class ChatIntake {
    static final String PATH = "/v1/chat/completions";

    private final ChatBook book;
    private final InstantSource clock;

    ChatIntake(ChatBook book, InstantSource clock) {
        this.book = book;
        this.clock = clock;
    }

    Reply accept(RequestHead head, RequestBody body)
            throws IOException, MalformedRequestException, InterruptedException {
        ChatMode mode =
                ChatMode.parse(head.header(GenerationIntake.SIMULATE_HEADER).orElse("ok"));
        return switch (mode) {
            case ChatMode.Fixed.REFUSE -> new Reply.Reset();
            case ChatMode.Unknown unknown ->
                Reply.json(
                        400,
                        error(
                                "invalid_request_error",
                                "unknown_simulate_mode",
                                "unknown simulate mode '" + unknown.value() + "'"));
            case ChatMode.Fixed.HTTP_503 ->
                Reply.json(503, error("server_error", "overloaded", "the engine is currently overloaded"));
            case ChatMode.Fixed.HTTP_500 ->
                Reply.json(
                        500,
                        error("server_error", "server_error", "the server had an error while processing your request"));
            case ChatMode.Fixed.CONTEXT_LENGTH ->
                badRequest(
                        body,
                        "context_length_exceeded",
                        "This model's maximum context length is 8192 tokens. However, your messages resulted"
                                + " in more tokens. Please reduce the length of the messages.");
            case ChatMode.Fixed.HTTP_429 ->
                Reply.json(429, error("requests", "rate_limit_exceeded", "rate limit reached for requests"));
            case ChatMode.RateLimited limited ->
                new Reply.Answer(WireResponse.json(
                                429, error("requests", "rate_limit_exceeded", "rate limit reached for requests"))
                        .withHeader(
                                "Retry-After",
                                Long.toString(limited.retryAfter().toSeconds())));
            case ChatMode.Fixed.AUTH ->
                Reply.json(401, error("invalid_request_error", "invalid_api_key", "incorrect API key provided"));
            case ChatMode.Fixed.USER_ERROR ->
                badRequest(body, "invalid_value", "'messages' is not valid for this model");
            case ChatMode.Fixed.POLICY ->
                badRequest(body, "content_policy_violation", "the prompt was flagged by the safety system");
            case ChatMode.Fixed.OK,
                    ChatMode.Fixed.NO_DONE,
                    ChatMode.Fixed.NO_USAGE,
                    ChatMode.Fixed.MALFORMED,
                    ChatMode.Fixed.TIMEOUT,
                    ChatMode.Fixed.DISCONNECT -> withAsk(body, ask -> act(mode, ask));
            case ChatMode.StreamCut _,
                    ChatMode.FirstTokenDelay _,
                    ChatMode.Slow _,
                    ChatMode.ToolCall _,
                    ChatMode.Stall _,
                    ChatMode.Drip _ -> withAsk(body, ask -> act(mode, ask));
        };
    }

    private Reply act(ChatMode mode, ChatAsk ask) {
        String id = book.nextId();
        ChatWire wire = new ChatWire(id, ask, clock.instant().getEpochSecond(), mode != ChatMode.Fixed.NO_USAGE);
        List<String> tokens = ask.answerTokens();
        return switch (mode) {
            case ChatMode.Fixed.MALFORMED ->
                ask.stream()
                        ? new Reply.Stream(wire::writeEmptyStream)
                        : new Reply.Answer(
                                new WireResponse(200, java.util.Map.of("X-Request-Id", id), wire.emptyCompletion()));
            case ChatMode.Fixed.TIMEOUT -> billThen(id, ask, tokens.size(), new Reply.Hold());
            case ChatMode.Fixed.DISCONNECT -> billThen(id, ask, tokens.size(), new Reply.Reset());
            case ChatMode.StreamCut cut -> streamCut(id, wire, ask, cut.tokens());
            case ChatMode.FirstTokenDelay delay -> firstTokenDelay(id, wire, ask, delay.delay());
            case ChatMode.Slow slow ->
                billThen(id, ask, tokens.size(), new Reply.Stream(out -> {
                    Thread.sleep(slow.delay());
                    answer(wire, ask, tokens).write(out);
                }));
            case ChatMode.ToolCall tool -> toolCall(id, wire, ask, tool.name());
            case ChatMode.Stall stall -> paced(id, wire, ask, stall.pause(), Duration.ZERO);
            case ChatMode.Drip drip -> paced(id, wire, ask, Duration.ZERO, drip.interval());
            case ChatMode.Fixed.NO_DONE ->
                billThen(
                        id,
                        ask,
                        tokens.size(),
                        ask.stream()
                                ? new Reply.Stream(out -> wire.writeStream(out, tokens, Duration.ZERO, -1, false))
                                : new Reply.Stream(answer(wire, ask, tokens)));
            case ChatMode.Fixed.OK, ChatMode.Fixed.NO_USAGE ->
                billThen(
                        id,
                        ask,
                        tokens.size(),
                        ask.stream()
                                ? new Reply.Stream(answer(wire, ask, tokens))
                                // Plain answers keep the connection alive, as a vendor's would.
                                : new Reply.Answer(new WireResponse(
                                        200, java.util.Map.of("X-Request-Id", id), wire.completion(tokens))));
            case ChatMode.Fixed.REFUSE,
                    ChatMode.Fixed.HTTP_503,
                    ChatMode.Fixed.HTTP_500,
                    ChatMode.Fixed.CONTEXT_LENGTH,
                    ChatMode.Fixed.HTTP_429,
                    ChatMode.Fixed.AUTH,
                    ChatMode.Fixed.USER_ERROR,
                    ChatMode.Fixed.POLICY -> throw new IllegalStateException("answered from the head: " + mode);
            case ChatMode.Unknown _, ChatMode.RateLimited _ ->
                throw new IllegalStateException("answered from the head: " + mode);
        };
    }

    private Reply streamCut(String id, ChatWire wire, ChatAsk ask, int cutAfter) {
        List<String> tokens = ask.answerTokens();
        return billThen(
                id,
                ask,
                Math.min(cutAfter, tokens.size()),
                ask.stream()
                        ? new Reply.Stream(out -> wire.writeStream(out, tokens, Duration.ZERO, cutAfter, true))
                        : new Reply.Stream(out -> wire.writeCutCompletion(out, wire.completion(tokens))));
    }

    private Reply firstTokenDelay(String id, ChatWire wire, ChatAsk ask, Duration delay) {
        List<String> tokens = ask.answerTokens();
        return billThen(
                id,
                ask,
                tokens.size(),
                ask.stream()
                        ? new Reply.Stream(out -> wire.writeStream(out, tokens, delay, -1, true))
                        : new Reply.Stream(out -> {
                            Thread.sleep(delay);
                            wire.writeCompletion(out, wire.completion(tokens));
                        }));
    }

    /** A stream paced by {@code stall:MS} or {@code drip:MS}; a plain answer just waits as long in all. */
    private Reply paced(String id, ChatWire wire, ChatAsk ask, Duration afterFirst, Duration between) {
        List<String> tokens = ask.answerTokens();
        return billThen(
                id,
                ask,
                tokens.size(),
                ask.stream()
                        ? new Reply.Stream(out -> wire.writePacedStream(out, tokens, afterFirst, between))
                        : new Reply.Stream(out -> {
                            Thread.sleep(afterFirst.plus(between.multipliedBy(Math.max(0, tokens.size() - 1))));
                            wire.writeCompletion(out, wire.completion(tokens));
                        }));
    }

    private Reply toolCall(String id, ChatWire wire, ChatAsk ask, String name) {
        ChatWire.Call called = wire.toolCall(name);
        return billThen(
                id,
                ask,
                called.fragments().size(),
                ask.stream()
                        ? new Reply.Stream(out -> wire.writeToolCallStream(out, called))
                        : new Reply.Answer(new WireResponse(
                                200, java.util.Map.of("X-Request-Id", id), wire.toolCallCompletion(called))));
    }

    private static Reply.Streamer answer(ChatWire wire, ChatAsk ask, List<String> tokens) {
        return ask.stream()
                ? out -> wire.writeStream(out, tokens, Duration.ZERO, -1, true)
                : out -> wire.writeCompletion(out, wire.completion(tokens));
    }

    private Reply billThen(String id, ChatAsk ask, long completionTokens, Reply reply) {
        book.bill(id, ask.model(), ask.promptTokens(), completionTokens);
        return reply;
    }

    /** A 400 after the request was read, as a vendor that looked at it answers. */
    private static Reply badRequest(RequestBody body, String code, String message)
            throws IOException, MalformedRequestException {
        body.read();
        return Reply.json(400, error("invalid_request_error", code, message));
    }

    private static ErrorBody error(String type, String code, String message) {
        return new ErrorBody(new ErrorDetail(type, code, message, null));
    }

    private static Reply withAsk(RequestBody body, java.util.function.Function<ChatAsk, Reply> work)
            throws IOException, MalformedRequestException {
        return switch (ChatAsk.read(body.read())) {
            case ChatAsk.Valid valid -> work.apply(valid.ask());
            case ChatAsk.Invalid invalid ->
                Reply.json(400, error("invalid_request_error", invalid.code(), invalid.message()));
        };
    }
}
