package io.idem.core.spi;

import io.idem.core.breaker.BreakerState;
import io.idem.core.chat.FailoverEvent;
import io.idem.core.domain.JobEventType;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Where an event of the event stream is kept, and the closed set of event types each place holds.
 * The declaration order is the tie-break of the stream's order: events at the same instant are
 * ordered by source, then by the source's own sequence.
 */
public enum EventSource {
    /** {@code job_events}: every job's trace (states, failovers, skips, operator decisions). */
    JOB("job", Arrays.stream(JobEventType.values()).map(JobEventType::wire).toList()),
    /** {@code provider_events}: breaker moves, vendor rate limits, unusable answers, provider budget thresholds, invoice drift, health flips, the static tier starting. */
    PROVIDER(
            "provider",
            Stream.concat(
                            Arrays.stream(BreakerState.values()).map(s -> "breaker." + s.wire()),
                            Stream.of(
                                    "provider.rate_limited",
                                    "budget.warning",
                                    "budget.exhausted",
                                    "invoice.drift",
                                    "provider.unhealthy",
                                    "provider.recovered",
                                    "provider.unusable",
                                    "tier.static_active"))
                    .toList()),
    /** {@code audit_events}: API-level events (chat failovers, throttled console sign-ins). */
    AUDIT("audit", List.of(FailoverEvent.TYPE, "console:signin_throttled")),
    /** {@code budget_events} of API keys (a provider's thresholds are provider events). */
    BUDGET("budget", List.of("budget.warning", "budget.exhausted"));

    private final String wire;
    private final Set<String> types;

    EventSource(String wire, List<String> types) {
        this.wire = wire;
        this.types = Set.copyOf(types);
    }

    public String wire() {
        return wire;
    }

    /** The event types this source holds. */
    public Set<String> types() {
        return types;
    }

    /** The source with this wire name, if there is one. */
    public static java.util.Optional<EventSource> parse(String wire) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(wire)).findFirst();
    }

    /** Every known event type, in source order. */
    public static Set<String> allTypes() {
        Set<String> all = new LinkedHashSet<>();
        for (EventSource source : values()) {
            source.types.stream().sorted().forEach(all::add);
        }
        return all;
    }

    /** The sources that hold any of {@code types}; every source when {@code types} is empty. */
    public static Set<EventSource> holding(Set<String> types) {
        if (types.isEmpty()) {
            return EnumSet.allOf(EventSource.class);
        }
        Set<EventSource> found = EnumSet.noneOf(EventSource.class);
        for (EventSource source : values()) {
            if (source.types.stream().anyMatch(types::contains)) {
                found.add(source);
            }
        }
        return found;
    }
}
