package io.idem.server.providers;

import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.JobReads;
import io.idem.server.http.Auth;
import io.idem.server.http.Feature;
import io.idem.server.http.Json;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code GET /v1/providers}: the registry with health (from the health sentinel) and today's spend. */
public final class ProvidersApi implements Feature {
    private final Auth auth;
    private final ProviderFacts facts;

    public ProvidersApi(Auth auth, ProviderFacts facts) {
        this.auth = auth;
        this.facts = facts;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.get("/v1/providers", this::list);
    }

    private void list(Context ctx) {
        auth.require(ctx);
        Map<String, JobReads.Spend> spend = facts.spendToday(facts.clock().instant());
        Map<String, JobReads.Health> recent = facts.recentHealth(facts.clock().instant());
        List<Map<String, Object>> data = new ArrayList<>();
        facts.providers()
                .forEach((name, settings) -> data.add(provider(name, settings, spend.get(name), recent.get(name))));
        Json.write(ctx, Map.of("data", data));
    }

    private Map<String, Object> provider(String name, ProviderSettings settings, JobReads.Spend s, JobReads.Health h) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", name);
        out.put("adapter", settings.adapter());
        out.put("chat_only", facts.isChatOnly(name));
        out.put("enabled", settings.enabled());
        out.put("default_model", settings.defaultModel());
        out.put("models", settings.models().keySet());
        out.put("lanes", facts.lanesOf(name));
        out.put("health", health(name));
        out.put(
                "today",
                Map.of(
                        "calls", s == null ? 0 : s.calls(),
                        "billed_usd",
                                (s == null ? BigDecimal.ZERO : s.billedUsd())
                                        .stripTrailingZeros()
                                        .toPlainString(),
                        "unknown_calls", s == null ? 0 : s.unknownCalls()));
        out.put("breaker", breaker(name));
        out.put("recent", window(h));
        out.put("budget", budget(name));
        return out;
    }

    /** The sentinel's last check of the provider. */
    private Map<String, Object> health(String name) {
        Map<String, Object> health = new LinkedHashMap<>();
        facts.health(name)
                .ifPresentOrElse(
                        last -> {
                            health.put("healthy", last.answer().healthy());
                            health.put("detail", last.answer().detail());
                            health.put("latency_ms", last.latency().toMillis());
                            health.put("checked_at", last.at().toString());
                        },
                        () -> {
                            health.put("healthy", null);
                            health.put("detail", "not checked yet");
                        });
        return health;
    }

    private Map<String, Object> breaker(String name) {
        var breaker = facts.gate().breakers().snapshot(name);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("state", breaker.state().wire());
        out.put("reopens", breaker.reopens());
        out.put("open_until", breaker.openUntil().map(Object::toString).orElse(null));
        return out;
    }

    /** The calls of the recent window: count, error rate, p95 latency. */
    private static Map<String, Object> window(JobReads.Health h) {
        Map<String, Object> window = new LinkedHashMap<>();
        window.put("window_minutes", ProviderFacts.RECENT.toMinutes());
        window.put("calls", h == null ? 0 : h.calls());
        window.put("error_rate", h == null || h.calls() == 0 ? 0.0 : (double) h.errors() / h.calls());
        window.put("p95_latency_ms", h == null ? null : h.p95LatencyMs().orElse(null));
        return window;
    }

    private Map<String, Object> budget(String name) {
        var budget = facts.gate().budgets().status(name);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("daily_usd", budget.budgetUsd().map(BigDecimal::toPlainString).orElse(null));
        out.put("spent_today_usd", budget.spentUsd().stripTrailingZeros().toPlainString());
        out.put("held_usd", budget.heldUsd().stripTrailingZeros().toPlainString());
        out.put("exhausted", budget.exhausted());
        return out;
    }
}
