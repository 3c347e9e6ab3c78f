package io.idem.core.spi;

import io.idem.core.webhook.Delivery;

/**
 * Sends one delivery attempt to its receiver, signed, within a bounded time. Never throws for
 * anything the receiver or the network does; says whether the receiver took it. Thread-safe.
 */
public interface WebhookSender {
    Result send(Delivery delivery);

    /** Whether the receiver took the attempt. */
    sealed interface Result {
        /** A 2xx answer. */
        record Taken(int status) implements Result {}

        /**
         * Not taken.
         *
         * @param status the HTTP status, 0 when there was no answer
         * @param why what went wrong, redacted: no secret, no URL
         */
        record Refused(int status, String why) implements Result {}
    }
}
