package io.idem.core.chat;

import io.idem.core.breaker.Admission;
import io.idem.core.engine.ProviderGate;
import io.idem.core.outcome.Outcome;
import io.idem.core.text.Redactor;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a chat call along its chain (DESIGN §5): each model in order, each attempt through the
 * provider gate shared with jobs (budget, then breaker), a model tried again only after a failure
 * known to be unbilled ({@link Retries}), failing over only as {@link FailoverRule} allows and only
 * within the chain's deadline; after a context-length refusal, models known to be too small are
 * skipped ({@link ContextRefusal}). A stream is pulled until its first content token
 * before anything reaches the client, so a failure before it fails over invisibly; the returned
 * {@link LockedStream} carries the rest. Every attempt is audited and every failover is an {@code
 * api:model_failover} event. Thread-safe: each call runs on its caller's thread.
 */
public final class ChatEngine {
    private static final Logger log = LoggerFactory.getLogger(ChatEngine.class);

    private final Map<String, ChatModel> models;
    private final Map<String, ChatAdapter> adapters;
    private final ProviderGate gate;
    private final ChatAuditSink audit;
    private final InstantSource clock;
    private final ChatSpending spending;

    /**
     * @param models every chat model by name
     * @param adapters the chat adapter of every provider that serves a model
     * @param redactor what every adapter's failures and health answers pass through before they are
     *     audited, logged or answered with
     */
    public ChatEngine(
            Map<String, ChatModel> models,
            Map<String, ChatAdapter> adapters,
            ProviderGate gate,
            ChatAuditSink audit,
            InstantSource clock,
            Redactor redactor) {
        this.models = Map.copyOf(models);
        Map<String, ChatAdapter> guarded = new java.util.HashMap<>();
        adapters.forEach((provider, adapter) -> guarded.put(provider, new RedactingChatAdapter(adapter, redactor)));
        this.adapters = Map.copyOf(guarded);
        this.gate = Objects.requireNonNull(gate, "gate");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.spending = new ChatSpending(gate);
        models.values().forEach(model -> {
            if (!adapters.containsKey(model.provider())) {
                throw new IllegalArgumentException("chat model '" + model.name() + "' names provider '"
                        + model.provider() + "' without a chat adapter");
            }
        });
    }

    /** Whether {@code model} can be served here. */
    public boolean knows(String model) {
        return models.containsKey(model);
    }

    /** A plain call: the first model that answers, or why none did. */
    public ChainResult complete(Chain chain, ChatRequest request, ChatCaller caller) {
        return run(
                chain,
                request,
                caller,
                false,
                (book, model, link, call, probe, deadline) -> plainAttempt(book, model, call, probe),
                failed -> failed);
    }

    /**
     * A streaming call: locked to the first model that produced content, or why none did. With
     * {@code mid_stream: continue}, a model that fails after content hands the stream on ({@link
     * #resume}).
     */
    public StreamStart stream(Chain chain, ChatRequest request, ChatCaller caller) {
        return run(chain, request, caller, true, streamAttempter(chain, request, caller), failed -> failed);
    }

    private Attempter<StreamStart> streamAttempter(Chain chain, ChatRequest request, ChatCaller caller) {
        return (book, model, link, call, probe, deadline) -> {
            AttemptEnd<StreamStart> end =
                    StreamOpening.open(book, model, adapters.get(model.provider()), link, call, probe, deadline);
            if (end.success() instanceof LockedStream locked && chain.midStream() == MidStream.CONTINUE) {
                locked.continuedBy((failed, outcome, answered) ->
                        resume(book, new Resume(chain, request, caller, deadline), link, failed, outcome, answered));
            }
            return end;
        };
    }

    /** What a stream taken over mid-answer runs on: the same chain, request, caller and deadline. */
    private record Resume(Chain chain, ChatRequest request, ChatCaller caller, Instant deadline) {}

    /**
     * The stream of {@code link}'s model failed after content: when the failover rules allow it, the
     * rest of the chain runs, each model that takes a prefill given {@code answered} to continue.
     */
    private Optional<LockedStream.Resumed> resume(
            AttemptBook book,
            Resume at,
            Chain.Link link,
            ChatAttempt failed,
            Outcome outcome,
            Optional<String> answered) {
        List<Chain.Link> links = at.chain().links();
        int next = links.indexOf(link) + 1;
        boolean timeLeft = book.now().isBefore(at.deadline());
        var verdict =
                FailoverRule.decide(outcome, at.chain().on(), at.caller().unconfirmed(), next < links.size(), timeLeft);
        if (verdict != FailoverRule.Verdict.FAIL_OVER) {
            return Optional.empty();
        }
        book.failedOver(
                failed,
                links.get(next).model(),
                failed.result().reason().orElseThrow().wire());
        Optional<String> prefix = answered.filter(text -> !text.isEmpty());
        StreamStart start =
                runFrom(book, at, next, prefix, streamAttempter(at.chain(), at.request(), at.caller()), ended -> ended);
        if (start instanceof LockedStream locked) {
            boolean continued = prefix.isPresent() && locked.model().prefill();
            return Optional.of(new LockedStream.Resumed(locked, !continued));
        }
        return Optional.empty();
    }

    /** How one model of the chain is tried: a plain call, or a stream opened up to its first token. */
    @FunctionalInterface
    private interface Attempter<S> {
        AttemptEnd<S> attempt(
                AttemptBook book, ChatModel model, Chain.Link link, ChatCall call, boolean probe, Instant deadline);
    }

    /**
     * Runs the chain: {@code S} is a {@link ChainResult} for a plain call, a {@link StreamStart} for a
     * stream; a chain that ends without an answer is a {@link ChainResult.Failed}, which is both.
     */
    private <S> S run(
            Chain chain,
            ChatRequest request,
            ChatCaller caller,
            boolean stream,
            Attempter<S> attempter,
            java.util.function.Function<ChainResult.Failed, S> ended) {
        AttemptBook book = new AttemptBook(gate, audit, clock, caller, chain, stream);
        Resume at = new Resume(chain, request, caller, book.now().plus(chain.deadline()));
        return runFrom(book, at, 0, Optional.empty(), attempter, ended);
    }

    /**
     * The chain from its {@code from}th model on; {@code prefix}, an answer another model began, is
     * given to each model that takes a prefill. After a {@code context_length} refusal, a model known
     * to be too small for the prompt is skipped.
     */
    private <S> S runFrom(
            AttemptBook book,
            Resume at,
            int from,
            Optional<String> prefix,
            Attempter<S> attempter,
            java.util.function.Function<ChainResult.Failed, S> ended) {
        List<Chain.Link> links = at.chain().links();
        Run<S> run = new Run<>(at, prefix, attempter, ended);
        for (int i = from; i < links.size() && !run.outOfTime(book); i++) {
            Chain.Link link = links.get(i);
            ChatModel model = model(link.model());
            Optional<String> next =
                    i + 1 < links.size() ? Optional.of(links.get(i + 1).model()) : Optional.empty();
            Optional<String> tooSmall = run.refusal.flatMap(refusal -> refusal.tooSmall(model));
            if (tooSmall.isPresent()) {
                skip(book, model, ContextRefusal.TOO_SMALL, tooSmall.get(), next);
                continue;
            }
            Optional<S> end = tryLink(book, run, link, model, next);
            if (end.isPresent()) {
                return end.get();
            }
        }
        if (run.lastRefusedContext) {
            // every larger model was skipped or failed too: the client learns its prompt is too long
            return ended.apply(ChainEnds.finalFailure(book, run.refusal.get().outcome()));
        }
        return ended.apply(ChainEnds.allFailed(
                book, book.attempts().isEmpty() ? "the chain's deadline passed" : "no model answered"));
    }

    /** One run of the chain: what it runs on, and what the last context refusal said. */
    private static final class Run<S> {
        final Resume at;
        final Optional<String> prefix;
        final Attempter<S> attempter;
        final java.util.function.Function<ChainResult.Failed, S> ended;
        Optional<ContextRefusal> refusal = Optional.empty();
        /** The last model called refused the prompt as too long. */
        boolean lastRefusedContext;

        Run(
                Resume at,
                Optional<String> prefix,
                Attempter<S> attempter,
                java.util.function.Function<ChainResult.Failed, S> ended) {
            this.at = at;
            this.prefix = prefix;
            this.attempter = attempter;
            this.ended = ended;
        }

        boolean outOfTime(AttemptBook book) {
            return !book.now().isBefore(at.deadline());
        }
    }

    /**
     * One model of the chain: its attempt, and its retries after failures known to be unbilled
     * ({@link Retries}). Empty when the chain goes on to the next model.
     */
    private <S> Optional<S> tryLink(
            AttemptBook book, Run<S> run, Chain.Link link, ChatModel model, Optional<String> next) {
        ChatCaller caller = run.at.caller();
        Instant deadline = run.at.deadline();
        for (int retry = 0; ; retry++) {
            Duration left = Duration.between(book.now(), deadline);
            if (left.isNegative() || left.isZero()) {
                return Optional.empty();
            }
            Duration timeout = min(link.timeout(), left);
            boolean probe;
            switch (pass(book, model, run.at.request(), timeout)) {
                case Pass.Skip skip -> {
                    skip(book, model, skip.reason(), "not called: " + skip.reason(), next);
                    return Optional.empty();
                }
                case Pass.Block block -> {
                    return Optional.of(run.ended.apply(new ChainResult.Failed(block.failure(), book.attempts())));
                }
                case Pass.Go go -> probe = go.probe();
            }
            ChatCall call = new ChatCall(
                    run.at.request(),
                    caller.callId() + "-" + book.nextSeq(),
                    model.vendorModel(),
                    timeout,
                    Retries.simulate(caller.simulate().get(model.name()), retry),
                    model.prefill() ? run.prefix : Optional.empty());
            AttemptEnd<S> attempt = run.attempter.attempt(book, model, link, call, probe, deadline);
            if (attempt.success() != null) {
                return Optional.of(attempt.success());
            }
            if (!attempt.interrupted() && retry < link.retries()) {
                Optional<Duration> wait = Retries.waitBefore(attempt.outcome(), book.now(), deadline);
                if (wait.isPresent()) {
                    if (Retries.sleep(wait.get())) {
                        continue;
                    }
                    return Optional.of(
                            run.ended.apply(ChainEnds.allFailed(book, "interrupted: the server is stopping")));
                }
            }
            Optional<ContextRefusal> refused = ContextRefusal.of(attempt.outcome(), model, run.at.request());
            run.lastRefusedContext = refused.isPresent();
            run.refusal = refused.or(() -> run.refusal);
            Optional<ChainResult.Failed> end = afterFailure(book, run.at.chain(), caller, attempt, next, deadline);
            return end.map(run.ended);
        }
    }

    /** Whether a model may be called now. */
    private sealed interface Pass {
        record Go(boolean probe) implements Pass {}

        record Skip(String reason) implements Pass {}

        record Block(ChainFailure failure) implements Pass {}
    }

    /** The call's ceiling, then the gate (budget, breaker), then the budget hold, which the book settles. */
    private Pass pass(AttemptBook book, ChatModel model, ChatRequest request, Duration timeout) {
        Optional<String> over = ChatSpending.overCeiling(book, model, request);
        if (over.isPresent()) {
            return new Pass.Skip(over.get());
        }
        boolean probe;
        switch (gate.admit(model.provider())) {
            case Admission.Denied denied -> {
                return new Pass.Skip(denied.reason());
            }
            case Admission.Allowed allowed -> probe = allowed.probe();
        }
        return switch (spending.hold(book, model, request, timeout)) {
            case ChatSpending.Verdict.Skip skip -> new Pass.Skip(skip.reason());
            case ChatSpending.Verdict.Block block -> new Pass.Block(block.failure());
            case ChatSpending.Verdict.Go go -> {
                book.holding(go.hold());
                yield new Pass.Go(probe);
            }
        };
    }

    /**
     * A model its gate, its budget, the call's ceiling or a context refusal keeps closed is audited
     * as skipped, and the chain moves on.
     */
    private static void skip(AttemptBook book, ChatModel model, String reason, String why, Optional<String> next) {
        ChatAttempt skipped = book.end(
                model, AttemptOutcomes.skipped(reason, why), book.now(), Optional.empty(), Optional.empty(), false);
        next.ifPresent(to -> book.failedOver(skipped, to, AttemptResult.SKIPPED));
    }

    /** After a failed attempt: fail over to {@code next} (empty result), or the chain's end. */
    private static <S> Optional<ChainResult.Failed> afterFailure(
            AttemptBook book,
            Chain chain,
            ChatCaller caller,
            AttemptEnd<S> attempt,
            Optional<String> next,
            Instant deadline) {
        if (attempt.interrupted()) {
            return Optional.of(ChainEnds.allFailed(book, "interrupted: the server is stopping"));
        }
        ChatAttempt failed = attempt.failed();
        Outcome outcome = attempt.outcome();
        boolean timeLeft = book.now().isBefore(deadline);
        return switch (FailoverRule.decide(outcome, chain.on(), caller.unconfirmed(), next.isPresent(), timeLeft)) {
            case FAIL_OVER -> {
                book.failedOver(
                        failed,
                        next.orElseThrow(),
                        failed.result().reason().orElseThrow().wire());
                yield Optional.empty();
            }
            case STOP ->
                // a prompt too long for every model left is the client's to shorten: its refusal is passed on
                ContextLength.CODE.equals(AttemptOutcomes.code(outcome))
                        ? Optional.of(ChainEnds.finalFailure(book, outcome))
                        : Optional.of(ChainEnds.allFailed(
                                book, ChainEnds.stopReason(outcome, chain, caller, next.isPresent(), timeLeft)));
            case FINAL -> Optional.of(ChainEnds.finalFailure(book, outcome));
        };
    }

    private ChatModel model(String name) {
        ChatModel model = models.get(name);
        if (model == null) {
            throw new IllegalArgumentException(
                    "unknown chat model '" + name + "' (validate chains before running them)");
        }
        return model;
    }

    private AttemptEnd<ChainResult> plainAttempt(AttemptBook book, ChatModel model, ChatCall call, boolean probe) {
        Instant started = book.now();
        ChatReply reply;
        try {
            reply = adapters.get(model.provider()).complete(call);
        } catch (RuntimeException e) {
            log.warn("chat adapter of '{}' failed on {}", model.provider(), call.reference(), e);
            reply = new ChatReply.Failed(new Outcome.AdapterFault(
                    "chat adapter failed on " + call.reference() + ": "
                            + e.getClass().getSimpleName(),
                    true));
        }
        long prompt = AttemptOutcomes.estimatedPromptTokens(call.request());
        return switch (reply) {
            case ChatReply.Served served -> {
                ChatCompletion completion = served.completion();
                TokenUsage usage =
                        completion.usage().orElseGet(() -> TokenUsage.estimate(prompt, words(completion.text())));
                AttemptResult result = AttemptOutcomes.served(model, usage, completion.requestId());
                ChatAttempt attempt = book.end(
                        model,
                        result,
                        started,
                        Optional.empty(),
                        Optional.of(
                                AttemptOutcomes.confirmed(completion.text(), completion.requestId(), result.costUsd())),
                        probe);
                if (completion.isFallback()) {
                    book.degraded(attempt);
                }
                yield AttemptEnd.succeeded(new ChainResult.Served(completion, model, book.attempts()));
            }
            case ChatReply.Failed failed -> {
                ChatAttempt attempt = book.end(
                        model,
                        AttemptOutcomes.failed(failed.outcome(), model, TokenUsage.estimate(prompt, 0)),
                        started,
                        Optional.empty(),
                        Optional.of(failed.outcome()),
                        probe);
                yield AttemptEnd.failed(attempt, failed.outcome());
            }
        };
    }

    private static long words(String text) {
        String trimmed = text.strip();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
