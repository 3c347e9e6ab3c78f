package io.idem.testkit;

import io.idem.core.outcome.Outcome;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A {@link ProviderAdapter} that answers from a script and records every call. Each {@link #then}
 * answers one call, in order; {@link #thenAlways} answers every call after those. A call past the
 * end of the script is answered with an {@link Outcome.AdapterFault} ("script exhausted") that
 * never says the request left, so the test sees it instead of a silent success. Reconcile and
 * cancel answer from their own queues ({@link ReconcileAnswer.Unsupported} / {@link
 * CancelAnswer.Unsupported} when empty). Like a real adapter it never throws and never retries.
 * Thread-safe.
 */
public final class ScriptedAdapter implements ProviderAdapter {
    private final Deque<Function<GenerationCall, Outcome>> script = new ArrayDeque<>();
    private Function<GenerationCall, Outcome> always;
    private final Deque<ReconcileAnswer> reconciles = new ArrayDeque<>();
    private final Deque<CancelAnswer> cancels = new ArrayDeque<>();
    private HealthAnswer health = new HealthAnswer(true, "scripted");
    private final List<GenerationCall> calls = new ArrayList<>();
    private final List<AttemptRef> asked = new ArrayList<>();

    /** Answers the next call with {@code outcome}. */
    public synchronized ScriptedAdapter then(Outcome outcome) {
        Objects.requireNonNull(outcome, "outcome");
        return then(call -> outcome);
    }

    /** Answers the next call with whatever {@code step} does (report a request id, move a clock, …). */
    public synchronized ScriptedAdapter then(Function<GenerationCall, Outcome> step) {
        script.addLast(Objects.requireNonNull(step, "step"));
        return this;
    }

    /** Answers the next call with {@code outcome} after {@code latency} has passed on {@code clock}. */
    public ScriptedAdapter then(Outcome outcome, ManualClock clock, Duration latency) {
        return then(call -> {
            clock.advance(latency);
            return outcome;
        });
    }

    /** Answers the next call with {@code outcome} after reporting the vendor's {@code requestId}. */
    public ScriptedAdapter thenSubmitted(String requestId, Outcome outcome) {
        return then(call -> {
            call.listener().submitted(requestId);
            return outcome;
        });
    }

    /** Answers every call after the scripted ones with {@code outcome}. */
    public synchronized ScriptedAdapter thenAlways(Outcome outcome) {
        Objects.requireNonNull(outcome, "outcome");
        always = call -> outcome;
        return this;
    }

    public synchronized ScriptedAdapter onReconcile(ReconcileAnswer... answers) {
        reconciles.addAll(List.of(answers));
        return this;
    }

    public synchronized ScriptedAdapter onCancel(CancelAnswer... answers) {
        cancels.addAll(List.of(answers));
        return this;
    }

    public synchronized ScriptedAdapter health(HealthAnswer answer) {
        health = Objects.requireNonNull(answer, "answer");
        return this;
    }

    @Override
    public Outcome generate(GenerationCall call) {
        Function<GenerationCall, Outcome> step;
        synchronized (this) {
            calls.add(call);
            step = script.isEmpty() ? always : script.removeFirst();
        }
        // outside the lock: a step may block or move a clock other threads read
        return step == null ? new Outcome.AdapterFault("script exhausted", false) : step.apply(call);
    }

    @Override
    public synchronized ReconcileAnswer reconcile(AttemptRef attempt) {
        asked.add(attempt);
        return reconciles.isEmpty() ? new ReconcileAnswer.Unsupported("not scripted") : reconciles.removeFirst();
    }

    @Override
    public synchronized CancelAnswer cancel(AttemptRef attempt) {
        asked.add(attempt);
        return cancels.isEmpty() ? new CancelAnswer.Unsupported("not scripted") : cancels.removeFirst();
    }

    @Override
    public synchronized HealthAnswer health() {
        return health;
    }

    /** Every generation call so far, in order. */
    public synchronized List<GenerationCall> calls() {
        return List.copyOf(calls);
    }

    public synchronized int callCount() {
        return calls.size();
    }

    /** Every attempt asked about by reconcile or cancel, in order. */
    public synchronized List<AttemptRef> asked() {
        return List.copyOf(asked);
    }
}
