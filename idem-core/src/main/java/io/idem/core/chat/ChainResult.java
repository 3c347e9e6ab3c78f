package io.idem.core.chat;

import java.util.List;
import java.util.Objects;

/** The end of a plain call's chain. */
public sealed interface ChainResult {
    /** Every attempt made, in order, the serving one last when there is one. */
    List<ChatAttempt> attempts();

    /** A model answered. */
    record Served(ChatCompletion completion, ChatModel model, List<ChatAttempt> attempts) implements ChainResult {
        public Served {
            Objects.requireNonNull(completion, "completion");
            Objects.requireNonNull(model, "model");
            attempts = List.copyOf(attempts);
        }
    }

    /** No model answered. */
    record Failed(ChainFailure failure, List<ChatAttempt> attempts) implements ChainResult, StreamStart {
        public Failed {
            Objects.requireNonNull(failure, "failure");
            attempts = List.copyOf(attempts);
        }
    }
}
