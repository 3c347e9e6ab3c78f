package io.idem.server.console;

import io.idem.core.breaker.BreakerSnapshot;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.JobReads;
import io.idem.server.providers.ProviderFacts;
import io.javalin.http.Context;
import java.math.BigDecimal;
import java.math.RoundingMode;
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
    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private final ConsoleGate gate;
    private final ConsolePages pages;
    private final ProviderFacts facts;

    ProvidersPage(ConsoleGate gate, ConsolePages pages, ProviderFacts facts) {
        this.gate = gate;
        this.pages = pages;
        this.facts = facts;
    }

    void show(Context ctx) {
        Visitor visitor = gate.visitor(ctx);
        var now = facts.clock().instant();
        Map<String, JobReads.Spend> spend = facts.spendToday(now);
        Map<String, JobReads.Health> recent = facts.recentHealth(now);
        List<Views.ProviderView> rows = new ArrayList<>();
        facts.providers().forEach((name, settings) -> rows.add(row(name, settings, spend.get(name), recent.get(name))));
        pages.page(
                ctx,
                "providers.jte",
                new Views.ProvidersView(ConsolePages.frame(visitor, "Providers", "providers"), rows));
    }

    private Views.ProviderView row(String name, ProviderSettings settings, JobReads.Spend s, JobReads.Health h) {
        var health = facts.health(name);
        var budget = facts.gate().budgets().status(name);
        BreakerSnapshot breaker = facts.gate().breakers().snapshot(name);
        return new Views.ProviderView(
                name,
                settings.adapter(),
                settings.enabled(),
                String.join(", ", facts.lanesOf(name)),
                new Views.HealthView(
                        health.map(r -> r.answer().healthy() ? "healthy" : "unhealthy")
                                .orElse("unknown"),
                        health.map(r -> r.answer().detail() + " · "
                                        + r.latency().toMillis() + " ms at " + CLOCK.format(r.at()))
                                .orElse("not checked yet")),
                new Views.BreakerView(
                        breaker.state().wire(),
                        breakerLabel(breaker),
                        breaker.openUntil().map(t -> "until " + CLOCK.format(t)).orElse(null)),
                new Views.RecentView(
                        h == null ? 0 : h.calls(),
                        h == null || h.calls() == 0 ? "—" : percent(h.errors(), h.calls()),
                        h == null ? "—" : h.p95LatencyMs().map(ms -> ms + " ms").orElse("—")),
                new Views.TodayView(
                        s == null ? 0 : s.calls(),
                        usd(s == null ? BigDecimal.ZERO : s.billedUsd()),
                        s == null ? 0 : s.unknownCalls()),
                new Views.BudgetView(
                        budget.budgetUsd()
                                .map(b -> usd(b) + " a day, " + usd(budget.spentUsd()) + " spent")
                                .orElse("none set"),
                        budget.exhausted()));
    }

    /** The breaker in words with a shape, so that its state is never told by colour alone. */
    private static String breakerLabel(BreakerSnapshot breaker) {
        return switch (breaker.state()) {
            case CLOSED -> "● closed";
            case OPEN -> "✕ open";
            case HALF_OPEN -> "◐ half-open";
        };
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
