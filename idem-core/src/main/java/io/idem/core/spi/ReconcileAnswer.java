package io.idem.core.spi;

import io.idem.core.outcome.Outcome;
import io.idem.core.text.Redactor;

/** What a vendor says, when asked later, about an earlier call. */
public sealed interface ReconcileAnswer {

    /** This answer with its words passed through {@code redactor}. */
    default ReconcileAnswer redactedBy(Redactor redactor) {
        return switch (this) {
            case Delivered d -> d;
            case NotBilled n -> new NotBilled(redactor.redact(n.detail()));
            case Failed f -> new Failed(redactor.redact(f.detail()), f.billed());
            case Rejected r -> new Rejected(r.kind(), redactor.redact(r.code()), redactor.redact(r.detail()));
            case StillUnknown s -> new StillUnknown(redactor.redact(s.detail()));
            case Unsupported u -> new Unsupported(redactor.redact(u.detail()));
        };
    }
    /** The vendor delivered; the result is in hand. */
    record Delivered(Outcome.Confirmed outcome) implements ReconcileAnswer {}

    /** The vendor definitively did not run (or did not bill) the call. */
    record NotBilled(String detail) implements ReconcileAnswer {}

    /** The vendor ran it and it failed; whether it billed is in {@code billed}. */
    record Failed(String detail, boolean billed) implements ReconcileAnswer {}

    /**
     * The vendor refused the call (nothing generated, nothing billed). The job must fail: a policy or
     * input refusal is never a reason to try another provider.
     */
    record Rejected(io.idem.core.outcome.RejectionKind kind, String code, String detail) implements ReconcileAnswer {}

    /** Still running, or the vendor could not tell us now. */
    record StillUnknown(String detail) implements ReconcileAnswer {}

    /** This vendor offers no way to ask. */
    record Unsupported(String detail) implements ReconcileAnswer {}
}
