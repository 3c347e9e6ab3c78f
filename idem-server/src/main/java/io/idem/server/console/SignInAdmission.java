package io.idem.server.console;

import io.idem.core.spi.AuditEvent;
import java.util.List;
import java.util.Objects;

/** Whether a sign-in attempt may have its key checked. */
sealed interface SignInAdmission {
    /** The key may be checked. */
    record Admitted() implements SignInAdmission {}

    /**
     * Too many recent attempts: the key is not checked.
     *
     * @param by the throttle with the longer wait
     * @param retryAfterSeconds how long until an attempt will be admitted again
     * @param started the audit events of throttles that started with this very attempt (usually
     *     none: a block is audited once, not on every refused attempt)
     */
    record Refused(Scope by, long retryAfterSeconds, List<AuditEvent> started) implements SignInAdmission {
        public Refused {
            Objects.requireNonNull(by, "by");
            if (retryAfterSeconds < 1) {
                throw new IllegalArgumentException("retryAfterSeconds must be at least 1, was " + retryAfterSeconds);
            }
            started = List.copyOf(started);
        }
    }

    /** What a throttle counts attempts by. */
    enum Scope {
        ADDRESS("address"),
        KEY_PREFIX("key_prefix");

        private final String wire;

        Scope(String wire) {
            this.wire = wire;
        }

        String wire() {
            return wire;
        }
    }
}
