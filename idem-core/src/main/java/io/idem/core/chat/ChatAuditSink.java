package io.idem.core.chat;

/**
 * Where every chat attempt and failover is recorded durably. Implementations may batch (group
 * commit), but must not lose a record they accepted unless the process dies; they never throw
 * into the call path. Thread-safe.
 */
public interface ChatAuditSink {
    void attempt(ChatAttempt attempt);

    void failover(FailoverEvent event);

    /** A degraded tier (the static provider) served this attempt's answer; nothing to record by default. */
    default void degraded(ChatAttempt attempt) {}
}
