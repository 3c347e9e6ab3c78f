package io.idem.core.spi;

/**
 * Appends single events to the audit log ({@code audit_events}), for the rare events that are
 * not part of a larger write (chat failovers are batched with their attempts instead).
 * Implementations are thread-safe and throw only when the event could not be stored.
 */
public interface AuditLog {
    void append(AuditEvent event);
}
