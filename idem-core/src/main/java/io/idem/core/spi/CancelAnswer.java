package io.idem.core.spi;

import io.idem.core.text.Redactor;

/** What a vendor says when asked to cancel a call. */
public sealed interface CancelAnswer {

    /** This answer with its words passed through {@code redactor}. */
    default CancelAnswer redactedBy(Redactor redactor) {
        return switch (this) {
            case Canceled c -> new Canceled(redactor.redact(c.detail()));
            case TooLate t -> new TooLate(redactor.redact(t.detail()));
            case Unclear u -> new Unclear(redactor.redact(u.detail()));
            case Unsupported u -> new Unsupported(redactor.redact(u.detail()));
        };
    }
    /** Canceled before it billed. */
    record Canceled(String detail) implements CancelAnswer {}

    /** Too late: the call finished (or is past cancelling). */
    record TooLate(String detail) implements CancelAnswer {}

    /** The vendor could not be reached or gave no clear answer. */
    record Unclear(String detail) implements CancelAnswer {}

    record Unsupported(String detail) implements CancelAnswer {}
}
