package io.idem.server.metrics;

import io.idem.core.outcome.Outcome;
import io.idem.core.pricing.AuditedCost;
import io.idem.core.pricing.Usage;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import java.time.Duration;

/**
 * A job adapter whose generations are counted, timed and priced (the adapter's own classification,
 * before the engine decides the job's move). Look-ups, cancels and health checks pass through.
 */
final class MeteredAdapter implements ProviderAdapter {
    private final ProviderSettings provider;
    private final ProviderAdapter adapter;
    private final Metrics metrics;

    MeteredAdapter(ProviderSettings provider, ProviderAdapter adapter, Metrics metrics) {
        this.provider = provider;
        this.adapter = adapter;
        this.metrics = metrics;
    }

    @Override
    public Outcome generate(GenerationCall call) {
        long started = System.nanoTime();
        Outcome outcome = adapter.generate(call);
        Duration latency = Duration.ofNanos(System.nanoTime() - started);
        metrics.jobAttemptEnded(
                provider.name(),
                call.vendorModel(),
                outcome,
                latency,
                AuditedCost.of(outcome, provider.pricing().cost(Usage.images(call.n()))));
        return outcome;
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        return adapter.reconcile(attempt);
    }

    @Override
    public CancelAnswer cancel(AttemptRef attempt) {
        return adapter.cancel(attempt);
    }

    @Override
    public HealthAnswer health() {
        return adapter.health();
    }

    @Override
    public io.idem.core.spi.UsageAnswer usage(java.time.LocalDate day) {
        return adapter.usage(day);
    }
}
