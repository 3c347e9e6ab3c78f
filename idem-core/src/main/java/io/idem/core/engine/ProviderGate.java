package io.idem.core.engine;

import io.idem.core.breaker.Admission;
import io.idem.core.breaker.CircuitBreakers;
import io.idem.core.budget.Hold;
import io.idem.core.budget.ProviderBudgets;
import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * The one place that decides whether a provider may be called now (budget, then breaker, then the
 * budget hold) and learns from each outcome. Used by jobs and calls alike. Thread-safe.
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

    /**
     * A call is about to go out: holds its expected cost on its provider's budget and its key's
     * budgets ({@link ProviderBudgets#tryHold}). Only a {@link Hold.Held} call may go out and must be
     * settled; a {@link Hold.Refused} one must not go out.
     */
    public Hold hold(
            UUID id,
            String provider,
            Optional<UUID> jobId,
            Optional<UUID> apiKeyId,
            BigDecimal expected,
            Duration holdFor) {
        return budgets.tryHold(id, provider, jobId, apiKeyId, expected, holdFor);
    }

    /** A held call ended: its hold becomes what it cost. */
    public void settle(UUID holdId, Billable billable, BigDecimal cost) {
        budgets.settle(holdId, billable, cost);
    }

    /** A held call never went out: its hold is released at once. */
    public void release(UUID holdId) {
        budgets.release(holdId);
    }

    /**
     * Only failures that say the provider is unwell count against it; rejections prove it answers,
     * a rate limit with {@code Retry-After} closes it for that long instead of counting, and an
     * answer that says the provider cannot serve us at all (quota, credentials, model) closes it for
     * a while without counting either way. {@code latency} is a stream's time to its first token.
     */
    public void report(String provider, Outcome outcome, Duration latency, boolean probe) {
        switch (outcome) {
            case Outcome.Confirmed c -> breakers.onSuccess(provider, latency, probe);
            case Outcome.Rejected r when r.unusable() -> breakers.onUnusable(provider, unusableReason(r));
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

    /**
     * What an unusable answer is recorded as: the vendor's error code when it looks like one (a
     * vendor's free text could quote the key), and the HTTP status.
     */
    static String unusableReason(Outcome.Rejected rejected) {
        String code = rejected.code().matches("[A-Za-z0-9_.:-]{1,64}") ? rejected.code() : "vendor_refusal";
        return rejected.httpStatus() > 0 ? code + " (HTTP " + rejected.httpStatus() + ")" : code;
    }
}
