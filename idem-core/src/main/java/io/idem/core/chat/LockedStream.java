package io.idem.core.chat;

import io.idem.core.outcome.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A stream locked to the model that produced its first content token (DESIGN §5): from here on
 * there is no failover; a failure is a {@link StreamPiece.Broken}, never a clean end. The attempt
 * is recorded when the stream ends, however it ends ({@link #close()} before the end records the
 * client leaving as an unconfirmed attempt). Pulled by one thread.
 */
public final class LockedStream implements StreamStart, AutoCloseable {
    private final AttemptBook book;
    private final ChatModel model;
    private final ChatStream upstream;
    private final Instant started;
    private final Instant endBy;
    private final Duration firstToken;
    private final boolean probe;
    private final long promptEstimate;
    private final Deque<ChatEvent> buffered = new ArrayDeque<>();
    private long tokensSeen;
    private boolean ended;

    LockedStream(
            AttemptBook book,
            ChatModel model,
            ChatStream upstream,
            Instant started,
            Instant endBy,
            Duration firstToken,
            boolean probe,
            long promptEstimate,
            ChatEvent first) {
        this.book = book;
        this.model = model;
        this.upstream = upstream;
        this.started = started;
        this.endBy = endBy;
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

    /** The next piece for the client; after a {@link StreamPiece.Done} or {@link StreamPiece.Broken}, none. */
    public StreamPiece next() throws InterruptedException {
        if (ended) {
            throw new IllegalStateException("the stream has ended");
        }
        ChatEvent event = buffered.poll();
        if (event == null) {
            Duration left = Duration.between(book.now(), endBy);
            Optional<ChatEvent> pulled;
            try {
                pulled = left.isNegative() || left.isZero() ? Optional.empty() : upstream.next(left);
            } catch (InterruptedException e) {
                fail(new Outcome.Unconfirmed("interrupted", "interrupted while streaming", 200, null));
                throw e;
            } catch (RuntimeException e) {
                return fail(new Outcome.AdapterFault(
                        "adapter failed while streaming: " + e.getClass().getSimpleName(), true));
            }
            if (pulled.isEmpty()) {
                return fail(
                        new Outcome.Unconfirmed("timeout", "the stream did not finish within its timeout", 200, null));
            }
            event = pulled.get();
        }
        return switch (event) {
            case ChatEvent.Token token -> {
                if (token.substantive()) {
                    tokensSeen++;
                }
                yield new StreamPiece.Text(token.text(), token.passthrough());
            }
            case ChatEvent.Finished finished -> finish(finished);
            case ChatEvent.Failed failed -> fail(failed.outcome());
        };
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

    private StreamPiece fail(Outcome outcome) {
        ended = true;
        upstream.close();
        AttemptResult result = AttemptOutcomes.failed(outcome, model, TokenUsage.estimate(promptEstimate, tokensSeen));
        book.end(model, result, started, Optional.of(firstToken), Optional.of(outcome), probe);
        return new StreamPiece.Broken(outcome, book.attempts());
    }

    /** Ends the stream early (the client left): the vendor call is aborted and recorded as unconfirmed. */
    @Override
    public void close() {
        if (!ended) {
            fail(new Outcome.Unconfirmed("client_disconnected", "the client left before the stream ended", 200, null));
        }
    }
}
