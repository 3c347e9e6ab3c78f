package io.idem.core.chat;

import io.idem.core.outcome.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A stream locked to the model that produced its first content token (DESIGN §5): by default there
 * is no failover from here on; a failure is a {@link StreamPiece.Broken}, never a clean end. With
 * a {@link Continuation} ({@code mid_stream: continue}) a failure hands the stream to the next model
 * instead, announced by a {@link StreamPiece.Switched}, and this stream then yields what that one
 * does. The attempt is recorded when the stream ends, however it ends ({@link #close()} before the
 * end records the client leaving as an unconfirmed attempt). Pulled by one thread.
 */
public final class LockedStream implements StreamStart, AutoCloseable {
    private final AttemptBook book;
    private final ChatModel model;
    private final ChatStream upstream;
    private final Instant started;
    private final Instant endBy;
    private final Duration idleTimeout;
    private final Duration firstToken;
    private final boolean probe;
    private final long promptEstimate;
    private final Deque<ChatEvent> buffered = new ArrayDeque<>();
    private final StringBuilder partial = new StringBuilder();
    private boolean toolCallsSeen;
    private long tokensSeen;
    private boolean ended;
    private Continuation continuation;
    private LockedStream successor;

    /** Who takes the stream over when its model fails after content. */
    @FunctionalInterface
    interface Continuation {
        /**
         * @param failed the attempt that just failed, already recorded
         * @param answered the content the client has seen, or empty when it cannot be continued
         *     (a tool call was under way)
         * @return the next model's stream, locked to its first token, or empty when none took over
         */
        Optional<Resumed> resume(ChatAttempt failed, Outcome outcome, Optional<String> answered);
    }

    /** The stream that took over; {@code restarted} when it answers afresh. */
    record Resumed(LockedStream stream, boolean restarted) {}

    LockedStream(
            AttemptBook book,
            ChatModel model,
            ChatStream upstream,
            Instant started,
            Instant endBy,
            Duration idleTimeout,
            Duration firstToken,
            boolean probe,
            long promptEstimate,
            ChatEvent first) {
        this.book = book;
        this.model = model;
        this.upstream = upstream;
        this.started = started;
        this.endBy = endBy;
        this.idleTimeout = idleTimeout;
        this.firstToken = firstToken;
        this.probe = probe;
        this.promptEstimate = promptEstimate;
        buffered.add(first);
    }

    /** The model that serves this stream. */
    public ChatModel model() {
        return model;
    }

    public Chain chain() {
        return book.chain();
    }

    /** The attempts before this one (all failed), for the report sent with the first chunk. */
    public List<ChatAttempt> earlierAttempts() {
        return book.attempts();
    }

    /** From now on, a failure after content is handed to {@code continuation}. */
    void continuedBy(Continuation continuation) {
        this.continuation = continuation;
    }

    /** The next piece for the client; after a {@link StreamPiece.Done} or {@link StreamPiece.Broken}, none. */
    public StreamPiece next() throws InterruptedException {
        if (successor != null) {
            return successor.next();
        }
        if (ended) {
            throw new IllegalStateException("the stream has ended");
        }
        ChatEvent event = buffered.poll();
        if (event == null) {
            Duration left = Duration.between(book.now(), endBy);
            boolean idleFirst = idleTimeout.compareTo(left) < 0;
            Optional<ChatEvent> pulled;
            try {
                pulled = left.isNegative() || left.isZero()
                        ? Optional.empty()
                        : upstream.next(idleFirst ? idleTimeout : left);
            } catch (InterruptedException e) {
                end(new Outcome.Unconfirmed("interrupted", "interrupted while streaming", 200, null));
                throw e;
            } catch (RuntimeException e) {
                return fail(new Outcome.AdapterFault(
                        "adapter failed while streaming: " + e.getClass().getSimpleName(), true));
            }
            if (pulled.isEmpty()) {
                return fail(silent(idleFirst));
            }
            event = pulled.get();
        }
        return switch (event) {
            case ChatEvent.Token token -> {
                if (token.substantive()) {
                    tokensSeen++;
                }
                partial.append(token.text());
                toolCallsSeen |= token.passthrough().contains("\"tool_calls\"");
                yield new StreamPiece.Text(token.text(), token.passthrough());
            }
            case ChatEvent.Finished finished -> finish(finished);
            case ChatEvent.Failed failed -> fail(failed.outcome());
        };
    }

    /**
     * The stream went quiet: past {@code stream_idle_timeout_ms} it counts as cut (a connection
     * error, unconfirmed), past the attempt's timeout as a timeout.
     */
    private Outcome silent(boolean idle) {
        return idle
                ? new Outcome.Unconfirmed(
                        "stream_idle_timeout",
                        "the stream sent nothing for stream_idle_timeout_ms (" + idleTimeout.toMillis()
                                + " ms) after it started",
                        200,
                        null)
                : new Outcome.Unconfirmed("timeout", "the stream did not finish within its timeout", 200, null);
    }

    private StreamPiece finish(ChatEvent.Finished finished) {
        ended = true;
        upstream.close();
        TokenUsage usage = finished.usage().orElseGet(() -> TokenUsage.estimate(promptEstimate, tokensSeen));
        AttemptResult result = AttemptOutcomes.served(model, usage, finished.requestId());
        ChatAttempt attempt = book.end(
                model,
                result,
                started,
                Optional.of(firstToken),
                Optional.of(AttemptOutcomes.confirmed("", finished.requestId(), result.costUsd())),
                probe);
        if (finished.degradationNotice().isPresent()) {
            book.degraded(attempt);
        }
        return new StreamPiece.Done(finished.finishReason(), usage, finished.degradationNotice(), book.attempts());
    }

    /** The model failed: the next one takes over when the chain continues streams, else the stream is broken. */
    private StreamPiece fail(Outcome outcome) {
        ChatAttempt failed = end(outcome);
        if (continuation != null) {
            Optional<String> answered = toolCallsSeen ? Optional.empty() : Optional.of(partial.toString());
            Optional<Resumed> resumed = continuation.resume(failed, outcome, answered);
            if (resumed.isPresent()) {
                successor = resumed.get().stream();
                return new StreamPiece.Switched(
                        successor.model(), resumed.get().restarted(), outcome, successor.earlierAttempts());
            }
        }
        return new StreamPiece.Broken(outcome, book.attempts());
    }

    private ChatAttempt end(Outcome outcome) {
        ended = true;
        upstream.close();
        AttemptResult result = AttemptOutcomes.failed(outcome, model, TokenUsage.estimate(promptEstimate, tokensSeen));
        return book.end(model, result, started, Optional.of(firstToken), Optional.of(outcome), probe);
    }

    /** Ends the stream early (the client left): the vendor call is aborted and recorded as unconfirmed. */
    @Override
    public void close() {
        if (successor != null) {
            successor.close();
        } else if (!ended) {
            end(new Outcome.Unconfirmed("client_disconnected", "the client left before the stream ended", 200, null));
        }
    }
}
