package io.idem.core.engine;

import io.idem.core.breaker.Admission;
import io.idem.core.breaker.CircuitBreakers;
import io.idem.core.budget.ProviderBudgets;
import io.idem.core.outcome.Outcome;
import java.math.BigDecimal;
import java.time.Duration;

/**
 * The one place that decides whether a provider may be called now (budget, then breaker) and
 * learns from each outcome. Used by jobs and calls alike. Thread-safe.
 */
public final class ProviderGate {
    private final CircuitBreakers breakers;
    private final ProviderBudgets budgets;

    public ProviderGate(CircuitBreakers breakers, ProviderBudgets budgets) {
        this.breakers = breakers;
        this.budgets = budgets;
    }

    public CircuitBreakers breakers() {
        return breakers;
    }

    public ProviderBudgets budgets() {
        return budgets;
    }

    /** Checks the budget first, so a blocked provider never consumes the breaker's single probe. */
    public Admission admit(String provider) {
        var blocked = budgets.blocked(provider);
        if (blocked.isPresent()) {
            return new Admission.Denied(blocked.get());
        }
        return breakers.tryAcquirePermission(provider);
    }

    /** A call is about to go out: its expected cost is at risk from now on. */
    public void charge(String provider, BigDecimal expectedCost) {
        budgets.charge(provider, expectedCost);
    }

    /**
     * Only failures that say the provider is unwell count against it; rejections prove it answers,
     * and a rate limit with {@code Retry-After} closes it for that long instead of counting.
     */
    public void report(String provider, Outcome outcome, Duration latency, boolean probe) {
        switch (outcome) {
            case Outcome.Confirmed c -> breakers.onSuccess(provider, latency, probe);
            case Outcome.Rejected r -> breakers.onSuccess(provider, latency, probe);
            case Outcome.Unavailable u
            when u.retryAfter().isPresent() ->
                breakers.onRateLimited(provider, u.retryAfter().get(), probe);
            case Outcome.Unavailable u -> breakers.onError(provider, latency, probe, u.code());
            case Outcome.Unconfirmed u -> breakers.onError(provider, latency, probe, u.code());
            case Outcome.AdapterFault f -> {
                // our own bug says nothing about the provider; a probe's hold simply expires
            }
        }
    }
}
