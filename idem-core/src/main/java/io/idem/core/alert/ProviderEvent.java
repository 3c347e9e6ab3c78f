package io.idem.core.alert;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One row of the provider event log, shared by every node: a breaker transition ({@code
 * breaker.open}, {@code breaker.half_open}, {@code breaker.closed}) or a budget threshold ({@code
 * budget.warning}, {@code budget.exhausted}).
 *
 * @param id the log's own order (ascending)
 * @param detail the event's flat detail ({@code reason}, {@code spent_usd}, …)
 */
public record ProviderEvent(long id, String provider, String type, Map<String, String> detail, Instant at) {
    public ProviderEvent {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(type, "type");
        detail = Map.copyOf(detail);
        Objects.requireNonNull(at, "at");
    }
}
