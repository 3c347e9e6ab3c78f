package io.idem.core.chat;

import io.idem.core.outcome.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first part of a streaming attempt (DESIGN §5): pull the vendor's stream until its first
 * content token, bounded by {@code first_token_timeout_ms}, the attempt's timeout and the chain's
 * deadline. Nothing has reached the client yet, so any failure here may fail over; content locks
 * the stream to this model ({@link LockedStream}). Role-only chunks do not count as content.
 */
final class StreamOpening {
    private static final Logger log = LoggerFactory.getLogger(StreamOpening.class);

    private StreamOpening() {}

    static AttemptEnd<StreamStart> open(
            AttemptBook book,
            ChatModel model,
            ChatAdapter adapter,
            Chain.Link link,
            ChatCall call,
            boolean probe,
            Instant deadline) {
        Instant started = book.now();
        Instant endBy = min(started.plus(call.timeout()), deadline);
        Instant firstTokenBy = min(started.plus(link.firstTokenTimeout()), endBy);
        long prompt = AttemptOutcomes.estimatedPromptTokens(call.request());
        ChatStream upstream;
        try {
            upstream = adapter.stream(call);
        } catch (RuntimeException e) {
            log.warn("chat adapter of '{}' failed to start {}", model.provider(), call.reference(), e);
            Outcome fault = adapterFault(call, e);
            return AttemptEnd.failed(endFailed(book, model, fault, prompt, started, probe), fault);
        }
        while (true) {
            Duration wait = Duration.between(book.now(), firstTokenBy);
            Optional<ChatEvent> event;
            try {
                event = wait.isNegative() || wait.isZero() ? Optional.empty() : upstream.next(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                upstream.close();
                Outcome stopped = interrupted(upstream.requestSent());
                return new AttemptEnd<>(null, endFailed(book, model, stopped, prompt, started, probe), stopped, true);
            } catch (RuntimeException e) {
                upstream.close();
                Outcome fault = adapterFault(call, e);
                return AttemptEnd.failed(endFailed(book, model, fault, prompt, started, probe), fault);
            }
            if (event.isEmpty()) {
                upstream.close();
                Outcome late = firstTokenTimeout(upstream.requestSent(), firstTokenBy.equals(endBy));
                return AttemptEnd.failed(endFailed(book, model, late, prompt, started, probe), late);
            }
            switch (event.get()) {
                case ChatEvent.Token token when !token.substantive() -> {
                    // a role-only chunk: nothing the client could have seen yet
                }
                case ChatEvent.Token _, ChatEvent.Finished _ -> {
                    return AttemptEnd.succeeded(
                            lock(book, model, upstream, started, endBy, link, probe, prompt, event.get()));
                }
                case ChatEvent.Failed failed -> {
                    upstream.close();
                    return AttemptEnd.failed(
                            endFailed(book, model, failed.outcome(), prompt, started, probe), failed.outcome());
                }
            }
        }
    }

    private static LockedStream lock(
            AttemptBook book,
            ChatModel model,
            ChatStream upstream,
            Instant started,
            Instant endBy,
            Chain.Link link,
            boolean probe,
            long prompt,
            ChatEvent first) {
        Duration firstToken = Duration.between(started, book.now());
        return new LockedStream(
                book, model, upstream, started, endBy, link.streamIdleTimeout(), firstToken, probe, prompt, first);
    }

    private static Outcome adapterFault(ChatCall call, RuntimeException e) {
        return new Outcome.AdapterFault(
                "chat adapter failed on " + call.reference() + ": "
                        + e.getClass().getSimpleName(),
                true);
    }

    /** The server is stopping: unknown once the request left, else nothing happened. */
    private static Outcome interrupted(boolean sent) {
        return sent
                ? new Outcome.Unconfirmed("interrupted", "interrupted before the first token", 0, null)
                : new Outcome.Unavailable("interrupted", "interrupted before the request was sent", 0, null);
    }

    private static Outcome firstTokenTimeout(boolean sent, boolean wholeAttempt) {
        String code = wholeAttempt ? "timeout" : "first_token_timeout";
        String message = wholeAttempt
                ? "no content within the attempt's timeout"
                : "no content token within first_token_timeout_ms";
        return sent
                ? new Outcome.Unconfirmed(code, message, 0, null)
                : new Outcome.Unavailable("timeout_before_send", message + " (the request never left)", 0, null);
    }

    private static ChatAttempt endFailed(
            AttemptBook book, ChatModel model, Outcome outcome, long prompt, Instant started, boolean probe) {
        return book.end(
                model,
                AttemptOutcomes.failed(outcome, model, TokenUsage.estimate(prompt, 0)),
                started,
                Optional.empty(),
                Optional.of(outcome),
                probe);
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
