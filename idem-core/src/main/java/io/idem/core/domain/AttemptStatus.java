package io.idem.core.domain;

/**
 * The life of one provider attempt. {@code SENDING}, {@code SUBMITTED} and {@code UNCONFIRMED} are
 * "open": at most one open attempt exists per job (a partial unique index enforces it).
 */
public enum AttemptStatus {
    /** Written ahead, before the request leaves. */
    SENDING,
    /** The vendor acknowledged and gave us its request id; the result is not in hand yet. */
    SUBMITTED,
    /** The request may have been served, and we do not know. */
    UNCONFIRMED,
    /** The provider delivered. */
    SUCCEEDED,
    /** The provider definitively did not deliver. */
    FAILED,
    /** An operator closed the attempt without knowing its outcome (its billable stays unknown). */
    ABANDONED;

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static AttemptStatus fromWire(String value) {
        return valueOf(value.toUpperCase(java.util.Locale.ROOT));
    }

    public boolean isOpen() {
        return switch (this) {
            case SENDING, SUBMITTED, UNCONFIRMED -> true;
            case SUCCEEDED, FAILED, ABANDONED -> false;
        };
    }
}
