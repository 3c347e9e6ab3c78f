package io.idem.core.chat;

import io.idem.core.outcome.Outcome;
import java.util.Objects;
import java.util.Optional;

/** One thing a vendor's stream said. A stream ends with exactly one {@link Finished} or {@link Failed}. */
public sealed interface ChatEvent {
    /**
     * A piece of the answer; may be empty (a role-only chunk), which does not lock a stream in.
     *
     * @param passthrough for vendors that speak OpenAI's protocol, a JSON object (text) of what the
     *     chunk's choice said beyond its content, to forward unchanged: {@code {"delta": {tool_calls,
     *     reasoning, refusal, …}, "logprobs": …}}; "" when nothing
     */
    record Token(String text, String passthrough) implements ChatEvent {
        public Token {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(passthrough, "passthrough");
        }

        public Token(String text) {
            this(text, "");
        }

        /** Whether the client would see something: content, a tool call, reasoning, … */
        public boolean substantive() {
            return !text.isEmpty() || !passthrough.isEmpty();
        }
    }

    /** The stream ended complete. */
    record Finished(
            String finishReason,
            Optional<TokenUsage> usage,
            Optional<String> requestId,
            Optional<String> degradationNotice)
            implements ChatEvent {
        public Finished {
            Objects.requireNonNull(finishReason, "finishReason");
            Objects.requireNonNull(usage, "usage");
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(degradationNotice, "degradationNotice");
        }
    }

    /** The stream ended broken or never started; {@code outcome} is never {@link Outcome.Confirmed}. */
    record Failed(Outcome outcome) implements ChatEvent {
        public Failed {
            if (outcome instanceof Outcome.Confirmed) {
                throw new IllegalArgumentException("a failed event cannot carry a confirmed outcome");
            }
        }
    }
}
