package io.idem.embedded;

import java.util.List;

/**
 * No model of the chain answered (the HTTP API's 4xx/5xx with {@code all_models_failed} or a
 * rejection's own code). {@link #attempts()} says what each model did, billing included: an attempt
 * whose billing is {@code unknown} may have been charged. Immutable and thread-safe.
 */
public final class ChatFailedException extends io.idem.core.IdemException {
    private final String code;
    private final transient List<ChatAnswer.Attempt> attempts;

    public ChatFailedException(String code, String message, List<ChatAnswer.Attempt> attempts) {
        super(message, false);
        this.code = code;
        this.attempts = List.copyOf(attempts);
    }

    /** {@code all_models_failed}, or the code of the rejection that stopped the chain. */
    public String code() {
        return code;
    }

    /** Every attempt made, in order. */
    public List<ChatAnswer.Attempt> attempts() {
        return attempts;
    }
}
