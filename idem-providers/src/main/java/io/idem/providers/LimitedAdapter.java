package io.idem.providers;

import io.idem.core.outcome.Outcome;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;

/** An adapter with poll or cancel switched off by configuration (the vendor's plan lacks them). */
final class LimitedAdapter implements ProviderAdapter {
    private final ProviderAdapter inner;
    private final ProviderSettings settings;

    LimitedAdapter(ProviderAdapter inner, ProviderSettings settings) {
        this.inner = inner;
        this.settings = settings;
    }

    @Override
    public Outcome generate(GenerationCall call) {
        return inner.generate(call);
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        return settings.poll()
                ? inner.reconcile(attempt)
                : new ReconcileAnswer.Unsupported("provider '" + settings.name() + "' offers no lookup");
    }

    @Override
    public CancelAnswer cancel(AttemptRef attempt) {
        return settings.cancel()
                ? inner.cancel(attempt)
                : new CancelAnswer.Unsupported("provider '" + settings.name() + "' offers no cancel");
    }

    @Override
    public HealthAnswer health() {
        return inner.health();
    }

    @Override
    public io.idem.core.spi.UsageAnswer usage(java.time.LocalDate day) {
        return inner.usage(day);
    }
}
