package io.idem.server.console;

import io.idem.core.breaker.BreakerSnapshot;
import io.idem.core.engine.HealthSentinel;
import io.idem.core.engine.ProviderGate;
import io.idem.core.engine.ProviderRegistry;
import io.idem.core.routing.Routing;
import io.idem.core.spi.JobReads;
import io.javalin.http.Context;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Providers page: the same facts as {@code GET /v1/providers}, for people. Health from the
 * health sentinel, the shared circuit breaker, the last 15 minutes of calls (error rate, p95
 * latency), and today's calls and billed spend against the daily budget.
 */
final class ProvidersPage {
    static final Duration RECENT = Duration.ofMinutes(15);
    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private final ConsoleGate gate;
    private final ConsolePages pages;
    private final ProviderRegistry registry;
    private final Routing routing;
    private final JobReads reads;
    private final ProviderGate providers;
    private final HealthSentinel sentinel;
    private final InstantSource clock;

    ProvidersPage(
            ConsoleGate gate,
            ConsolePages pages,
            ProviderRegistry registry,
            Routing routing,
            JobReads reads,
            ProviderGate providers,
            HealthSentinel sentinel,
            InstantSource clock) {
        this.gate = gate;
        this.pages = pages;
        this.registry = registry;
        this.routing = routing;
        this.reads = reads;
        this.providers = providers;
        this.sentinel = sentinel;
        this.clock = clock;
    }

    void show(Context ctx) {
        Visitor visitor = gate.visitor(ctx);
        var now = clock.instant();
        var today = now.atZone(ZoneOffset.UTC)
                .toLocalDate()
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant();
        Map<String, JobReads.Spend> spend = reads.spendSince(today);
        Map<String, JobReads.Health> recent = reads.healthSince(now.minus(RECENT));
        List<Views.ProviderView> rows = new ArrayList<>();
        registry.all().forEach((name, provider) -> {
            JobReads.Spend s = spend.get(name);
            JobReads.Health h = recent.get(name);
            var health = sentinel.last(name);
            var budget = providers.budgets().status(name);
            BreakerSnapshot breaker = providers.breakers().snapshot(name);
            rows.add(new Views.ProviderView(
                    name,
                    provider.settings().adapter(),
                    provider.settings().enabled(),
                    String.join(", ", lanesOf(name)),
                    health.map(r -> r.answer().healthy() ? "healthy" : "unhealthy")
                            .orElse("unknown"),
                    health.map(r -> r.answer().detail() + " · " + r.latency().toMillis() + " ms at "
                                    + CLOCK.format(r.at()))
                            .orElse("not checked yet"),
                    breaker.state().wire(),
                    breakerLabel(breaker),
                    breaker.openUntil().map(t -> "until " + CLOCK.format(t)).orElse(null),
                    h == null ? 0 : h.calls(),
                    h == null || h.calls() == 0 ? "—" : percent(h.errors(), h.calls()),
                    h == null ? "—" : h.p95LatencyMs().map(ms -> ms + " ms").orElse("—"),
                    s == null ? 0 : s.calls(),
                    usd(s == null ? BigDecimal.ZERO : s.billedUsd()),
                    s == null ? 0 : s.unknownCalls(),
                    budget.budgetUsd()
                            .map(b -> usd(b) + " a day, " + usd(budget.spentUsd()) + " spent")
                            .orElse("none set"),
                    budget.exhausted()));
        });
        pages.page(
                ctx,
                "providers.jte",
                new Views.ProvidersView(ConsolePages.frame(visitor, "Providers", "providers"), rows));
    }

    /** The breaker in words with a shape, so that its state is never told by colour alone. */
    private static String breakerLabel(BreakerSnapshot breaker) {
        return switch (breaker.state()) {
            case CLOSED -> "● closed";
            case OPEN -> "✕ open";
            case HALF_OPEN -> "◐ half-open";
        };
    }

    private List<String> lanesOf(String provider) {
        return routing.lanes().entrySet().stream()
                .filter(e -> e.getValue().contains(provider))
                .map(Map.Entry::getKey)
                .toList();
    }

    private static String percent(long part, long whole) {
        return BigDecimal.valueOf(part * 100)
                        .divide(BigDecimal.valueOf(whole), 1, RoundingMode.HALF_UP)
                        .stripTrailingZeros()
                        .toPlainString()
                + " %";
    }

    private static String usd(BigDecimal amount) {
        return "$" + amount.stripTrailingZeros().toPlainString();
    }
}
