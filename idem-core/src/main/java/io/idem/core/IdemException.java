package io.idem.core;

/**
 * The one unchecked root of Idem's own exceptions. Expected outcomes (a breaker open, a lease
 * lost, a vendor refusal) are values, not exceptions; what is thrown is a refusal of bad input or
 * configuration, or a bug. Subclasses are named for what failed ({@code UnableToX}, {@code
 * InvalidX}, {@code IllegalX}) and carry the ids needed to find it; none quotes a secret.
 */
public abstract class IdemException extends RuntimeException {
    protected IdemException(String message) {
        super(message);
    }

    protected IdemException(String message, Throwable cause) {
        super(message, cause);
    }

    /** For refusals that are answered, not debugged: no stack trace is captured. */
    protected IdemException(String message, boolean withStackTrace) {
        super(message, null, false, withStackTrace);
    }
}
