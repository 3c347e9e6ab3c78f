package io.idem.core.spi;

import io.idem.core.text.Redactor;

/** The result of one health probe. */
public record HealthAnswer(boolean healthy, String detail) {
    /** What a provider without a health endpoint answers: nothing was checked. */
    public static final String NO_ENDPOINT = "no health endpoint";

    /** The answer of a provider that has no health check. */
    public static HealthAnswer unchecked() {
        return new HealthAnswer(true, NO_ENDPOINT);
    }

    /** Whether a real check gave this answer (a provider without a health endpoint checks nothing). */
    public boolean checked() {
        return !(healthy && NO_ENDPOINT.equals(detail));
    }

    /** This answer with its detail passed through {@code redactor}. */
    public HealthAnswer redactedBy(Redactor redactor) {
        return new HealthAnswer(healthy, redactor.redact(detail));
    }
}
