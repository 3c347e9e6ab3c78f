package io.idem.core.chat;

import io.idem.core.outcome.Outcome;
import java.util.Objects;

/** The end of a plain (non-streaming) attempt. */
public sealed interface ChatReply {
    /** The vendor answered. */
    record Served(ChatCompletion completion) implements ChatReply {
        public Served {
            Objects.requireNonNull(completion, "completion");
        }
    }

    /** No answer; {@code outcome} is never {@link Outcome.Confirmed}. */
    record Failed(Outcome outcome) implements ChatReply {
        public Failed {
            if (outcome instanceof Outcome.Confirmed) {
                throw new IllegalArgumentException("a failed reply cannot carry a confirmed outcome");
            }
        }
    }
}
