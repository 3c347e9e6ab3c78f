package io.idem.core.spi;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Vendor callback bookkeeping: which attempt a callback is about, and which deliveries were seen
 * before. Recording a delivery is atomic, so of two copies of one delivery (on any nodes) exactly
 * one is new. Thread-safe.
 */
public interface Webhooks {
    /** Records a delivery; {@code false} when the same delivery was recorded before (a replay). */
    boolean recordDelivery(byte[] digest, String provider, UUID attemptId, Instant now);

    /** The job an attempt of this provider belongs to. */
    Optional<UUID> jobOfAttempt(UUID attemptId, String provider);
}
