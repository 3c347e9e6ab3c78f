package io.idem.core.chat;

import io.idem.core.outcome.Outcome;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What a locked stream yields next to the client. */
public sealed interface StreamPiece {
    /** Content to forward, with what else the vendor's chunk said ({@link ChatEvent.Token#passthrough()}). */
    record Text(String text, String passthrough) implements StreamPiece {
        public Text {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(passthrough, "passthrough");
        }

        public Text(String text) {
            this(text, "");
        }
    }

    /** The stream completed; {@code attempts} is the final report. */
    record Done(String finishReason, TokenUsage usage, Optional<String> degradationNotice, List<ChatAttempt> attempts)
            implements StreamPiece {
        public Done {
            Objects.requireNonNull(finishReason, "finishReason");
            Objects.requireNonNull(usage, "usage");
            Objects.requireNonNull(degradationNotice, "degradationNotice");
            attempts = List.copyOf(attempts);
        }
    }

    /**
     * The stream's model failed after content and the next model took over ({@code mid_stream:
     * continue}): {@code restarted} when it answers afresh (the client must drop what it has), else
     * it continues the partial answer. {@code attempts} is the report so far.
     */
    record Switched(ChatModel to, boolean restarted, Outcome cause, List<ChatAttempt> attempts) implements StreamPiece {
        public Switched {
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(cause, "cause");
            attempts = List.copyOf(attempts);
        }
    }

    /** The stream broke after content was sent: the client must see an error, never a clean end. */
    record Broken(Outcome outcome, List<ChatAttempt> attempts) implements StreamPiece {
        public Broken {
            Objects.requireNonNull(outcome, "outcome");
            attempts = List.copyOf(attempts);
        }
    }
}
