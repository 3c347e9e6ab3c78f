package io.idem.core.spi;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Webhook subscriptions and their delivery log. An {@code ownerScope} of {@code null} (an admin)
 * sees every subscription; otherwise only that owner's own-jobs subscriptions, never one that hears
 * every owner. The signing secret goes in sealed and never comes out through this port. Thread-safe.
 */
public interface WebhookSubscriptions {
    /** Stores a new subscription with its sealed signing secret. */
    void create(Subscription subscription, byte[] sealedSecret);

    /** Oldest first. */
    List<Subscription> list(String ownerScope);

    Optional<Subscription> find(UUID id, String ownerScope);

    /** Deletes it and its delivery log (pending deliveries are not sent); false when not found. */
    boolean delete(UUID id, String ownerScope);

    /** How many subscriptions {@code owner} has. */
    int count(String owner);

    /** A subscription's deliveries, newest first, after {@code after} (exclusive) when given. */
    Page deliveries(UUID subscriptionId, Optional<Cursor> after, int limit);

    /**
     * A subscription.
     *
     * @param allOwners every owner's events (an admin's); false: job events of {@code owner}'s jobs
     * @param createdBy the API key that created it; its deliveries stop when that key is revoked
     * @param eventTypes wire names, or {@code *}
     */
    record Subscription(
            UUID id,
            String owner,
            boolean allOwners,
            UUID createdBy,
            String url,
            List<String> eventTypes,
            Optional<String> description,
            Instant createdAt) {
        public Subscription {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(createdBy, "createdBy");
            Objects.requireNonNull(url, "url");
            eventTypes = List.copyOf(eventTypes);
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(createdAt, "createdAt");
        }
    }

    /** Where a page of the delivery log ends. */
    record Cursor(Instant createdAt, UUID id) {}

    record Page(List<DeliveryRecord> deliveries, Optional<Cursor> next) {
        public Page {
            deliveries = List.copyOf(deliveries);
        }
    }

    /**
     * One delivery as the log shows it.
     *
     * @param status {@code pending}, {@code delivered} or {@code failed} (given up)
     */
    record DeliveryRecord(
            UUID id,
            long eventId,
            String eventType,
            String status,
            Attempts attempts,
            Instant createdAt,
            Optional<Instant> finishedAt) {}

    /**
     * Its attempts so far.
     *
     * @param lastStatus the receiver's last HTTP status (0: it did not answer)
     * @param lastError why the last attempt was not taken, redacted
     * @param nextAt when a pending delivery is due
     */
    record Attempts(
            int count,
            Optional<Integer> lastStatus,
            Optional<String> lastError,
            Optional<Instant> lastAt,
            Optional<Instant> nextAt,
            Instant giveUpAt) {}
}
