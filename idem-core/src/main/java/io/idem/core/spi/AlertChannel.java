package io.idem.core.spi;

import io.idem.core.alert.Alert;

/**
 * Where operators hear about an alert: a webhook, a Slack channel, a Telegram chat. Implementations
 * never throw for anything the receiving side or the network does; they say whether it took the
 * message. Thread-safe.
 */
public interface AlertChannel {
    /** A short name for logs and the delivery ledger ({@code slack}, {@code telegram}, …). */
    String name();

    Delivery send(Alert alert);

    /** Whether the receiving side took the message. */
    sealed interface Delivery {
        record Taken() implements Delivery {}

        /** Not taken; {@code why} carries no secret (no token, no webhook URL). */
        record Refused(String why) implements Delivery {}
    }
}
