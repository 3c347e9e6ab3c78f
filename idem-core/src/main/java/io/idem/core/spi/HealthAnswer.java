package io.idem.core.spi;

import io.idem.core.text.Redactor;

/** The result of one health probe. */
public record HealthAnswer(boolean healthy, String detail) {

    /** This answer with its detail passed through {@code redactor}. */
    public HealthAnswer redactedBy(Redactor redactor) {
        return new HealthAnswer(healthy, redactor.redact(detail));
    }
}
