package io.idem.core.chat;

import java.time.Instant;
import java.util.Objects;

/**
 * {@code api:model_failover}: a call left {@code from} for {@code toModel} (DESIGN §5). Recorded in
 * the audit log, whose outbox trigger makes it the {@code api:model_failover} webhook event.
 *
 * @param reason the trigger that allowed it, or {@code skipped} when the provider could not be called
 */
public record FailoverEvent(ChatAttempt from, String toModel, String reason, Instant at) {
    public static final String TYPE = "api:model_failover";

    public FailoverEvent {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(toModel, "toModel");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(at, "at");
    }
}
