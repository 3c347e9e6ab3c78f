package io.idem.core.engine;

import io.idem.core.outcome.Outcome;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.core.spi.UsageAnswer;
import io.idem.core.text.Redactor;
import java.util.Objects;

/**
 * The engine's last line of defence against a leaking adapter: every answer an adapter gives passes
 * through the node's {@link Redactor} before the engine records, logs or shows any of it, so an
 * adapter that forgets to scrub a vendor's words cannot put a key on a job, an event or an answer.
 * Adapters still redact on their own (before they clip, which this cannot undo). Exceptions pass
 * through untouched; the engine turns them into outcomes that name only the exception's type.
 * Thread-safe when the adapter is.
 */
final class RedactingAdapter implements ProviderAdapter {
    private final ProviderAdapter adapter;
    private final Redactor redactor;

    RedactingAdapter(ProviderAdapter adapter, Redactor redactor) {
        this.adapter = Objects.requireNonNull(adapter, "adapter");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    @Override
    public Outcome generate(GenerationCall call) {
        return adapter.generate(call).redactedBy(redactor);
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        return adapter.reconcile(attempt).redactedBy(redactor);
    }

    @Override
    public CancelAnswer cancel(AttemptRef attempt) {
        return adapter.cancel(attempt).redactedBy(redactor);
    }

    @Override
    public HealthAnswer health() {
        return adapter.health().redactedBy(redactor);
    }

    @Override
    public UsageAnswer usage(java.time.LocalDate day) {
        return switch (adapter.usage(day)) {
            case UsageAnswer.Failed f -> new UsageAnswer.Failed(redactor.redact(f.detail()));
            case UsageAnswer.Unsupported u -> new UsageAnswer.Unsupported(redactor.redact(u.detail()));
            case UsageAnswer other -> other;
        };
    }

    @Override
    public String toString() {
        return adapter.toString();
    }
}
