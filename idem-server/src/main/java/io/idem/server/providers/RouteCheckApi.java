package io.idem.server.providers;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.breaker.Admission;
import io.idem.core.routing.CandidateCheck;
import io.idem.server.chat.ChatPlans;
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Feature;
import io.idem.server.http.Json;
import io.idem.server.jobs.JobRequests;
import io.idem.server.jobs.JobsApi;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /v1/route/check}: for a job body, the candidates it would use, in order, each with
 * every reason it would be skipped (lane, model, capability, configuration, key permission, breaker,
 * budget); for a chat body (one with {@code messages}), the resolved chain in order with each
 * model's breaker, budget and health, the deadline split and the key's budget. Calls no provider,
 * writes nothing, takes no breaker probe.
 */
public final class RouteCheckApi implements Feature {
    private final Auth auth;
    private final JobRequests requests;
    private final ChatPlans chat;
    private final ProviderFacts facts;
    private final long maxBytes;

    public RouteCheckApi(Auth auth, JobRequests requests, ChatPlans chat, ProviderFacts facts, long maxBytes) {
        this.auth = auth;
        this.requests = requests;
        this.chat = chat;
        this.facts = facts;
        this.maxBytes = maxBytes;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.post("/v1/route/check", this::check);
    }

    private void check(Context ctx) {
        Caller caller = auth.require(ctx);
        JsonNode body = Json.readObject(ctx, maxBytes);
        Json.write(ctx, ChatPlans.isChat(body) ? chat(body, caller) : job(body, caller));
    }

    private Map<String, Object> job(JsonNode body, Caller caller) {
        JobRequests.Draft draft = requests.draft(body, Set.of(), JobsApi.asker(caller));
        List<Map<String, Object>> candidates = new ArrayList<>();
        int usable = 0;
        for (CandidateCheck check : draft.checks()) {
            List<String> reasons = new ArrayList<>(check.reasons());
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("provider", check.provider());
            gateState(check.provider(), reasons, out);
            candidates.add(ordered(out, reasons));
            usable += reasons.isEmpty() ? 1 : 0;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("lane", draft.plan().lane());
        out.put("pinned", draft.plan().pinned());
        out.put("model", draft.spec().model());
        out.put("candidates", candidates);
        out.put("routable", usable > 0);
        return out;
    }

    private Map<String, Object> chat(JsonNode body, Caller caller) {
        ChatPlans.Planned plan = chat.plan(body, caller);
        List<Map<String, Object>> chain = new ArrayList<>();
        int usable = 0;
        for (ChatPlans.Entry entry : plan.entries()) {
            List<String> reasons = new ArrayList<>();
            if (entry.effectiveTimeoutMs() == 0) {
                reasons.add("deadline_spent");
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("model", entry.model().name());
            out.put("provider", entry.model().provider());
            out.put("vendor_model", entry.model().vendorModel());
            out.put("timeout_ms", entry.link().timeout().toMillis());
            out.put("first_token_timeout_ms", entry.link().firstTokenTimeout().toMillis());
            out.put("stream_idle_timeout_ms", entry.link().streamIdleTimeout().toMillis());
            out.put("retries", entry.link().retries());
            out.put(
                    "context_window",
                    entry.model().contextWindow().isPresent()
                            ? entry.model().contextWindow().getAsLong()
                            : null);
            out.put("starts_by_ms", entry.startsByMs());
            out.put("effective_timeout_ms", entry.effectiveTimeoutMs());
            gateState(entry.model().provider(), reasons, out);
            out.put("health", health(entry.model().provider()));
            chain.add(ordered(out, reasons));
            usable += reasons.isEmpty() ? 1 : 0;
        }
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("budget_exceeded", plan.keyBudgetRefusal().isPresent());
        key.put("message", plan.keyBudgetRefusal().map(Throwable::getMessage).orElse(null));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kind", "chat");
        out.put("lane", plan.lane());
        out.put("unconfirmed", plan.unconfirmed());
        out.put("requested_model", plan.chain().requestedModel());
        out.put("deadline_ms", plan.chain().deadline().toMillis());
        out.put("on", plan.chain().on().stream().map(t -> t.wire()).sorted().toList());
        out.put("chain", chain);
        out.put("key", key);
        out.put("routable", usable > 0 && plan.keyBudgetRefusal().isEmpty());
        return out;
    }

    /** The provider's breaker and budget, with the reason each would skip it. */
    private void gateState(String provider, List<String> reasons, Map<String, Object> out) {
        var breaker = facts.gate().breakers().snapshot(provider);
        if (Admission.decide(breaker, facts.clock().instant()) == Admission.Decision.DENY) {
            reasons.add("breaker_" + breaker.state().wire());
        }
        var budget = facts.gate().budgets().status(provider);
        if (budget.exhausted()) {
            reasons.add("budget_exhausted");
        }
        out.put("breaker", breaker.state().wire());
        out.put("budget_spent_today_usd", budget.spentUsd().stripTrailingZeros().toPlainString());
        out.put(
                "budget_daily_usd",
                budget.budgetUsd().map(java.math.BigDecimal::toPlainString).orElse(null));
    }

    /** {@code provider} (or {@code model}) first, then {@code eligible} and {@code reasons}, then the rest. */
    private static Map<String, Object> ordered(Map<String, Object> fields, List<String> reasons) {
        Map<String, Object> out = new LinkedHashMap<>();
        var first = fields.entrySet().iterator().next();
        out.put(first.getKey(), first.getValue());
        out.put("eligible", reasons.isEmpty());
        out.put("reasons", reasons);
        out.putAll(fields);
        return out;
    }

    private Map<String, Object> health(String provider) {
        Map<String, Object> out = new LinkedHashMap<>();
        facts.health(provider)
                .ifPresentOrElse(
                        last -> {
                            out.put("healthy", last.answer().healthy());
                            out.put("checked_at", last.at().toString());
                        },
                        () -> {
                            out.put("healthy", null);
                            out.put("checked_at", null);
                        });
        return out;
    }
}
