package io.idem.core.webhook;

import java.util.Arrays;
import java.util.Optional;

/**
 * The closed set of events a webhook subscription may ask for. The wire names are what the outbox
 * triggers write and what a delivery's {@code type} says. Job events concern one job and its owner;
 * the others concern the whole gateway and go to admins only.
 */
public enum EventType {
    JOB_SUCCEEDED("job.succeeded"),
    JOB_FAILED("job.failed"),
    JOB_MANUAL_REVIEW("job.manual_review"),
    JOB_CANCELED("job.canceled"),
    MODEL_FAILOVER("api:model_failover"),
    BUDGET_WARNING("budget.warning"),
    BUDGET_EXHAUSTED("budget.exhausted"),
    BREAKER_OPENED("breaker.opened"),
    BREAKER_CLOSED("breaker.closed"),
    PROVIDER_UNHEALTHY("provider.unhealthy"),
    PROVIDER_RECOVERED("provider.recovered"),
    PROVIDER_UNUSABLE("provider.unusable"),
    STATIC_TIER_ACTIVE("tier.static_active");

    /** What a subscription names to get every event it may see. */
    public static final String ALL = "*";

    private final String wire;

    EventType(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** Whether it concerns one job (and so may go to that job's owner). */
    public boolean aboutAJob() {
        return wire.startsWith("job.");
    }

    /** Whether it ends a job: what a job's own {@code callback_url} hears about. */
    public boolean endsAJob() {
        return this == JOB_SUCCEEDED || this == JOB_FAILED || this == JOB_CANCELED;
    }

    public static Optional<EventType> fromWire(String value) {
        return Arrays.stream(values()).filter(t -> t.wire.equals(value)).findFirst();
    }
}
