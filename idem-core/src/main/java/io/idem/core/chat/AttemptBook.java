package io.idem.core.chat;

import io.idem.core.engine.ProviderGate;
import io.idem.core.outcome.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The attempts of one call: each ended attempt is reported to the provider gate (breakers learn,
 * its budget hold is settled) and handed to the audit, in that order, exactly once. One call's thread
 * uses it at a time.
 */
final class AttemptBook {
    private static final Logger log = LoggerFactory.getLogger(AttemptBook.class);

    private final ProviderGate gate;
    private final ChatAuditSink audit;
    private final InstantSource clock;
    private final ChatCaller caller;
    private final Chain chain;
    private final boolean stream;
    private final List<ChatAttempt> attempts = new ArrayList<>();
    private Optional<UUID> hold = Optional.empty();

    AttemptBook(
            ProviderGate gate,
            ChatAuditSink audit,
            InstantSource clock,
            ChatCaller caller,
            Chain chain,
            boolean stream) {
        this.gate = gate;
        this.audit = audit;
        this.clock = clock;
        this.caller = caller;
        this.chain = chain;
        this.stream = stream;
    }

    Instant now() {
        return clock.instant();
    }

    ChatCaller caller() {
        return caller;
    }

    Chain chain() {
        return chain;
    }

    List<ChatAttempt> attempts() {
        return List.copyOf(attempts);
    }

    int nextSeq() {
        return attempts.size() + 1;
    }

    /** Records an ended attempt; {@code gateOutcome} is empty when the provider was never called. */
    ChatAttempt end(
            ChatModel model,
            AttemptResult result,
            Instant started,
            Optional<Duration> firstToken,
            Optional<Outcome> gateOutcome,
            boolean probe) {
        Duration latency = Duration.between(started, clock.instant());
        ChatAttempt attempt = new ChatAttempt(
                caller, chain.requestedModel(), stream, nextSeq(), model, result, started, latency, firstToken);
        attempts.add(attempt);
        try {
            // a stream's latency is its time to the first token: a long healthy answer is not slow
            Duration felt = firstToken.orElse(latency);
            gateOutcome.ifPresent(outcome -> gate.report(model.provider(), outcome, felt, probe));
        } catch (RuntimeException e) {
            // The breaker's shared state is best effort here; the audit below is what must not be lost.
            log.warn(
                    "could not report chat attempt {} of call {} to the provider gate",
                    attempt.seq(),
                    caller.callId(),
                    e);
        }
        settleHold(attempt);
        audit.attempt(attempt);
        return attempt;
    }

    /** The next attempt's expected cost is held on its budgets until {@link #end} settles it. */
    void holding(Optional<UUID> hold) {
        this.hold = hold;
    }

    /** Settles the ended attempt's hold; if that fails the sweeper settles it as unknown later. */
    private void settleHold(ChatAttempt attempt) {
        Optional<UUID> held = hold;
        hold = Optional.empty();
        try {
            held.ifPresent(id -> gate.settle(
                    id, attempt.result().billable(), attempt.result().costUsd()));
        } catch (RuntimeException e) {
            log.warn(
                    "could not settle the budget hold of chat attempt {} of call {}",
                    attempt.seq(),
                    caller.callId(),
                    e);
        }
    }

    /** The served attempt's answer came from a degraded tier. */
    void degraded(ChatAttempt attempt) {
        audit.degraded(attempt);
    }

    void failedOver(ChatAttempt from, String toModel, String reason) {
        audit.failover(new FailoverEvent(from, toModel, reason, clock.instant()));
    }
}
