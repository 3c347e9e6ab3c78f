package io.idem.core.spi;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One row of the audit log: what happened ({@code type}, as {@code area:event}), who or what did
 * it, what it concerned, and a flat detail. Never holds a secret: writers put hashes or kinds in
 * {@code detail}, not submitted keys.
 */
public record AuditEvent(String type, String actor, Optional<String> subject, Map<String, String> detail, Instant at) {
    private static final Pattern TYPE = Pattern.compile("[a-z]+:[a-z_]+");

    public AuditEvent {
        Objects.requireNonNull(type, "type");
        if (!TYPE.matcher(type).matches()) {
            throw new IllegalArgumentException("audit type must look like area:event_name, was '" + type + "'");
        }
        if (actor == null || actor.isBlank()) {
            throw new IllegalArgumentException("audit event " + type + " needs an actor, was '" + actor + "'");
        }
        Objects.requireNonNull(subject, "subject");
        detail = Map.copyOf(detail);
        Objects.requireNonNull(at, "at");
    }
}
