package io.idem.server.providers;

import io.idem.core.engine.HealthSentinel;
import io.idem.core.engine.ProviderGate;
import io.idem.core.engine.ProviderRegistry;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.routing.Routing;
import io.idem.core.spi.JobReads;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the providers views read ({@code GET /v1/providers} and the console's Providers page): the
 * registry and its lanes, the health sentinel, the shared breakers and budgets, and the attempt
 * audit (job and chat attempts). Chat-only providers (they serve chat models and no job lane) are
 * listed after the job providers, with the chat side's health sentinel. Reads only; thread-safe.
 *
 * @param chatOnly the chat-only providers, by name
 * @param chatSentinel the chat side's sentinel (none when no chat-only provider calls out)
 */
public record ProviderFacts(
        ProviderRegistry registry,
        Routing routing,
        JobReads reads,
        ProviderGate gate,
        HealthSentinel sentinel,
        InstantSource clock,
        Map<String, ProviderSettings> chatOnly,
        Optional<HealthSentinel> chatSentinel) {

    public ProviderFacts {
        chatOnly = Map.copyOf(new java.util.TreeMap<>(chatOnly));
    }

    /** Every provider: the job providers in configuration order, then the chat-only ones by name. */
    public Map<String, ProviderSettings> providers() {
        Map<String, ProviderSettings> all = new java.util.LinkedHashMap<>();
        registry.all().forEach((name, provider) -> all.put(name, provider.settings()));
        new java.util.TreeMap<>(chatOnly).forEach(all::putIfAbsent);
        return all;
    }

    public boolean isChatOnly(String provider) {
        return chatOnly.containsKey(provider) && !registry.all().containsKey(provider);
    }

    /** The last health check of {@code provider}, by whichever sentinel checks it. */
    public Optional<HealthSentinel.Result> health(String provider) {
        return sentinel.last(provider).or(() -> chatSentinel.flatMap(s -> s.last(provider)));
    }

    /** The window of "recent" calls: error rate and p95 latency. */
    public static final Duration RECENT = Duration.ofMinutes(15);

    /** Calls and spend per provider since the start of {@code now}'s day (UTC). */
    public Map<String, JobReads.Spend> spendToday(Instant now) {
        return reads.spendSince(now.atZone(ZoneOffset.UTC)
                .toLocalDate()
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant());
    }

    /** Health per provider over the {@link #RECENT} window before {@code now}. */
    public Map<String, JobReads.Health> recentHealth(Instant now) {
        return reads.healthSince(now.minus(RECENT));
    }

    /** The lanes that list {@code provider}, in lane order. */
    public List<String> lanesOf(String provider) {
        return routing.lanes().entrySet().stream()
                .filter(e -> e.getValue().contains(provider))
                .map(Map.Entry::getKey)
                .toList();
    }
}
