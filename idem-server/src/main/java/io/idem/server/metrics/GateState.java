package io.idem.server.metrics;

import io.idem.core.breaker.BreakerState;
import io.idem.core.engine.HealthSentinel;
import io.idem.core.engine.ProviderGate;
import java.math.MathContext;
import java.util.List;
import java.util.Optional;

/**
 * The provider gauges over the node's live state: the shared breakers and budgets of the gate, and
 * the health sentinels (the job side's and the chat side's, each knowing its own providers).
 */
public final class GateState implements Metrics.ProviderState {
    private final ProviderGate gate;
    private final List<HealthSentinel> sentinels;

    public GateState(ProviderGate gate, List<HealthSentinel> sentinels) {
        this.gate = gate;
        this.sentinels = List.copyOf(sentinels);
    }

    @Override
    public BreakerState breaker(String provider) {
        return gate.breakers().snapshot(provider).state();
    }

    @Override
    public Optional<Boolean> healthy(String provider) {
        return sentinels.stream()
                .flatMap(s -> s.last(provider).stream())
                .findFirst()
                .map(last -> last.answer().healthy());
    }

    @Override
    public Optional<Double> budgetUsedRatio(String provider) {
        var status = gate.budgets().status(provider);
        return status.budgetUsd()
                .filter(budget -> budget.signum() > 0)
                .map(budget ->
                        status.spentUsd().divide(budget, MathContext.DECIMAL64).doubleValue());
    }
}
