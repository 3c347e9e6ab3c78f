package io.idem.core.outcome;

/** Why a provider rejected a request (DESIGN §3). */
public enum RejectionKind {
    /** Invalid input: fail the job, no fallback. */
    USER_ERROR,
    /** Content or account policy: fail the job, never another provider. */
    POLICY,
    /** Our configuration: missing key, 401/403, unknown model. Skipped in auto mode, an error when pinned. */
    CONFIG;

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
