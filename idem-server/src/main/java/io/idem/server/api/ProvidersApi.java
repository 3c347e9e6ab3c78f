package io.idem.server.api;

import io.idem.core.engine.ProviderRegistry;
import io.idem.core.routing.Routing;
import io.idem.core.spi.HealthAnswer;
import io.idem.postgres.PgJobReads;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** {@code GET /v1/providers}: the registry with health (probed at most every 10 s) and today's spend. */
public final class ProvidersApi {
    private static final Duration HEALTH_TTL = Duration.ofSeconds(10);
    private final Auth auth;
    private final ProviderRegistry registry;
    private final Routing routing;
    private final PgJobReads reads;
    private final InstantSource clock;
    private final Map<String, CachedHealth> health = new ConcurrentHashMap<>();

    private record CachedHealth(HealthAnswer answer, long until) {}

    private final io.idem.core.engine.ProviderGate gate;

    public ProvidersApi(
            Auth auth,
            ProviderRegistry registry,
            Routing routing,
            PgJobReads reads,
            InstantSource clock,
            io.idem.core.engine.ProviderGate gate) {
        this.gate = gate;
        this.auth = auth;
        this.registry = registry;
        this.routing = routing;
        this.reads = reads;
        this.clock = clock;
    }

    public void install(JavalinConfig config) {
        config.routes.get("/v1/providers", this::list);
    }

    private void list(Context ctx) {
        auth.require(ctx);
        var today = clock.instant()
                .atZone(ZoneOffset.UTC)
                .toLocalDate()
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant();
        Map<String, PgJobReads.Spend> spend = reads.spendSince(today);
        Map<String, PgJobReads.Health> recent =
                reads.healthSince(clock.instant().minus(Duration.ofMinutes(15)));
        Map<String, CompletableFuture<HealthAnswer>> probes = new LinkedHashMap<>();
        registry.all().forEach((name, provider) -> probes.put(name, probe(name, provider)));
        List<Map<String, Object>> data = new ArrayList<>();
        registry.all().forEach((name, provider) -> {
            var settings = provider.settings();
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("name", name);
            out.put("adapter", settings.adapter());
            out.put("enabled", settings.enabled());
            out.put("default_model", settings.defaultModel());
            out.put("models", settings.models().keySet());
            out.put(
                    "lanes",
                    routing.lanes().entrySet().stream()
                            .filter(e -> e.getValue().contains(name))
                            .map(Map.Entry::getKey)
                            .toList());
            HealthAnswer answer = probes.get(name).getNow(new HealthAnswer(false, "probe timed out"));
            out.put("health", Map.of("healthy", answer.healthy(), "detail", answer.detail()));
            PgJobReads.Spend s = spend.get(name);
            out.put(
                    "today",
                    Map.of(
                            "calls", s == null ? 0 : s.calls(),
                            "billed_usd",
                                    (s == null ? BigDecimal.ZERO : s.billedUsd())
                                            .stripTrailingZeros()
                                            .toPlainString(),
                            "unknown_calls", s == null ? 0 : s.unknownCalls()));
            var breaker = gate.breakers().snapshot(name);
            Map<String, Object> breakerOut = new LinkedHashMap<>();
            breakerOut.put("state", breaker.state().wire());
            breakerOut.put("reopens", breaker.reopens());
            breakerOut.put(
                    "open_until", breaker.openUntil().map(Object::toString).orElse(null));
            out.put("breaker", breakerOut);
            PgJobReads.Health h = recent.get(name);
            Map<String, Object> window = new LinkedHashMap<>();
            window.put("window_minutes", 15);
            window.put("calls", h == null ? 0 : h.calls());
            window.put("error_rate", h == null || h.calls() == 0 ? 0.0 : (double) h.errors() / h.calls());
            window.put("p95_latency_ms", h == null ? null : h.p95LatencyMs().orElse(null));
            out.put("recent", window);
            var budget = gate.budgets().status(name);
            Map<String, Object> budgetOut = new LinkedHashMap<>();
            budgetOut.put(
                    "daily_usd",
                    budget.budgetUsd().map(BigDecimal::toPlainString).orElse(null));
            budgetOut.put(
                    "spent_today_usd", budget.spentUsd().stripTrailingZeros().toPlainString());
            budgetOut.put("exhausted", budget.exhausted());
            out.put("budget", budgetOut);
            data.add(out);
        });
        Json.write(ctx, Map.of("data", data));
    }

    private CompletableFuture<HealthAnswer> probe(String name, ProviderRegistry.Provider provider) {
        CachedHealth cached = health.get(name);
        if (cached != null && cached.until() - System.nanoTime() > 0) {
            return CompletableFuture.completedFuture(cached.answer());
        }
        CompletableFuture<HealthAnswer> future = CompletableFuture.supplyAsync(
                () -> {
                    HealthAnswer answer;
                    try {
                        answer = provider.adapter().health();
                    } catch (RuntimeException e) {
                        answer = new HealthAnswer(
                                false, "health check failed: " + e.getClass().getSimpleName());
                    }
                    health.put(name, new CachedHealth(answer, System.nanoTime() + HEALTH_TTL.toNanos()));
                    return answer;
                },
                java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        try {
            future.get(2, TimeUnit.SECONDS);
        } catch (Exception e) {
            // answered below as "probe timed out"
        }
        return future;
    }
}
