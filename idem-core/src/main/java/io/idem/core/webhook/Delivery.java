package io.idem.core.webhook;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One event on its way to one receiver, as a node claimed it: the same {@code id} (sent as {@code
 * webhook-id}) and the same {@code body} on every attempt.
 *
 * @param eventId the outbox event's number, shared by every delivery of that event
 * @param attempt which attempt this claim is, from 1
 * @param giveUpAt no attempt starts after this
 * @param claim the claim that fences this node's failure report
 */
public record Delivery(
        UUID id,
        long eventId,
        String eventType,
        String url,
        String body,
        Signer signer,
        int attempt,
        Instant giveUpAt,
        UUID claim) {
    public Delivery {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(eventType, "eventType");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(signer, "signer");
        Objects.requireNonNull(giveUpAt, "giveUpAt");
        Objects.requireNonNull(claim, "claim");
    }

    /** Whose secret signs it. */
    public sealed interface Signer {
        /** A subscription's secret, in its stored (sealed) form. */
        record Subscription(UUID subscriptionId, byte[] sealedSecret) implements Signer {}

        /** A job's {@code callback_url}: the secret derived for the API key that submitted the job. */
        record JobCallback(UUID apiKeyId) implements Signer {}
    }
}
