package io.idem.embedded;

/**
 * Idem refused a request before doing anything: a bad field, a provider or model nothing can serve,
 * a spent budget. {@link #code()} is the same stable code the HTTP API answers with ({@code
 * missing_prompt}, {@code no_eligible_provider}, {@code unknown_model}, …). Nothing was stored and
 * no provider was called. Immutable and thread-safe.
 */
public final class InvalidRequestException extends io.idem.core.IdemException {
    private final String code;

    public InvalidRequestException(String code, String message) {
        super(message, false);
        this.code = code;
    }

    /** The HTTP API's error code for this refusal. */
    public String code() {
        return code;
    }
}
