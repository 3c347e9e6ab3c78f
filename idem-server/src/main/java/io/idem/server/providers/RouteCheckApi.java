package io.idem.server.providers;

import io.idem.core.breaker.Admission;
import io.idem.core.engine.ProviderGate;
import io.idem.core.routing.CandidateCheck;
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
 * {@code POST /v1/route/check}: the candidates a job request would use, in order, each with every
 * reason it would be skipped (lane, model, capability, configuration, key permission, breaker,
 * budget). Calls no provider, writes nothing, takes no breaker probe.
 */
public final class RouteCheckApi implements Feature {
    private final Auth auth;
    private final JobRequests requests;
    private final ProviderGate gate;
    private final long maxBytes;
    private final java.time.InstantSource clock;

    public RouteCheckApi(
            Auth auth, JobRequests requests, ProviderGate gate, long maxBytes, java.time.InstantSource clock) {
        this.auth = auth;
        this.requests = requests;
        this.gate = gate;
        this.maxBytes = maxBytes;
        this.clock = clock;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.post("/v1/route/check", this::check);
    }

    private void check(Context ctx) {
        Caller caller = auth.require(ctx);
        JobRequests.Draft draft = requests.draft(Json.readObject(ctx, maxBytes), Set.of(), JobsApi.asker(caller));
        List<Map<String, Object>> candidates = new ArrayList<>();
        int usable = 0;
        for (CandidateCheck check : draft.checks()) {
            List<String> reasons = new ArrayList<>(check.reasons());
            var breaker = gate.breakers().snapshot(check.provider());
            var decision = Admission.decide(breaker, clock.instant());
            if (decision == Admission.Decision.DENY) {
                reasons.add("breaker_" + breaker.state().wire());
            }
            var budget = gate.budgets().status(check.provider());
            if (budget.exhausted()) {
                reasons.add("budget_exhausted");
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("provider", check.provider());
            out.put("eligible", reasons.isEmpty());
            out.put("reasons", reasons);
            out.put("breaker", breaker.state().wire());
            out.put(
                    "budget_spent_today_usd",
                    budget.spentUsd().stripTrailingZeros().toPlainString());
            out.put(
                    "budget_daily_usd",
                    budget.budgetUsd().map(java.math.BigDecimal::toPlainString).orElse(null));
            candidates.add(out);
            usable += reasons.isEmpty() ? 1 : 0;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("lane", draft.plan().lane());
        body.put("pinned", draft.plan().pinned());
        body.put("model", draft.spec().model());
        body.put("candidates", candidates);
        body.put("routable", usable > 0);
        Json.write(ctx, body);
    }
}
