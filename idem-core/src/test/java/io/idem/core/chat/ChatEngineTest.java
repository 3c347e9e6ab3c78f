package io.idem.core.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.breaker.BreakerSettings;
import io.idem.core.breaker.CircuitBreakers;
import io.idem.core.budget.Hold;
import io.idem.core.budget.HoldRequest;
import io.idem.core.budget.ProviderBudgets;
import io.idem.core.budget.SpendStore;
import io.idem.core.domain.Billable;
import io.idem.core.engine.ProviderGate;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.text.Redactor;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The chain engine against scripted adapters: failover, lock-in, the report and the audit. */
class ChatEngineTest {
    private static final ChatRequest REQUEST =
            new ChatRequest(List.of(new ChatMessage("user", "hello there")), "{\"messages\":[]}", 0);

    private final io.idem.core.breaker.MemoryBreakerStore breakerStore = new io.idem.core.breaker.MemoryBreakerStore();
    private final CircuitBreakers breakers =
            new CircuitBreakers(breakerStore, BreakerSettings.DEFAULTS, InstantSource.system(), "test-node");
    private final ProviderGate gate =
            new ProviderGate(breakers, new ProviderBudgets(new NoSpend(), Map.of(), InstantSource.system()));
    private final RecordingAudit audit = new RecordingAudit();
    private final Scripted a = new Scripted();
    private final Scripted b = new Scripted();
    private final Scripted c = new Scripted();
    private static final String KEY = "chat-vendor-key-0123456789";
    private final ChatEngine engine = new ChatEngine(
            Map.of("ma", model("ma", "pa"), "mb", model("mb", "pb"), "mc", model("mc", "pc")),
            Map.of("pa", a, "pb", b, "pc", c),
            gate,
            audit,
            InstantSource.system(),
            Redactor.of(List.of(KEY)));

    private static ChatModel model(String name, String provider) {
        return new ChatModel(name, provider, "v-" + name, BigDecimal.ONE, BigDecimal.TWO);
    }

    private static Chain chain(Set<Trigger> on, String... models) {
        List<Chain.Link> links = java.util.Arrays.stream(models)
                .map(m -> new Chain.Link(m, Duration.ofSeconds(5), Duration.ofMillis(500)))
                .toList();
        return new Chain(links, on, Duration.ofSeconds(30), models[0]);
    }

    private static ChatCaller caller(UnconfirmedPolicy policy) {
        return new ChatCaller(UUID.randomUUID(), Optional.empty(), "tester", "standard", policy, Map.of());
    }

    private static ChatReply served(String text) {
        return new ChatReply.Served(new ChatCompletion(
                text, "stop", Optional.of(new TokenUsage(10, 5)), Optional.of("req-1"), Optional.empty()));
    }

    @Test
    void aPlainCallFailsOverOnAServerErrorAndReportsBothAttempts() {
        a.reply = new ChatReply.Failed(new Outcome.Unavailable("overloaded", "busy", 503, null));
        b.reply = served("from b");
        var result = engine.complete(chain(Trigger.all(), "ma", "mb"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        assertThat(result).isInstanceOfSatisfying(ChainResult.Served.class, served -> {
            assertThat(served.model().name()).isEqualTo("mb");
            assertThat(served.completion().text()).isEqualTo("from b");
        });
        assertThat(result.attempts()).extracting(x -> x.result().outcome()).containsExactly("unavailable", "served");
        assertThat(audit.attempts).hasSize(2);
        assertThat(audit.events).singleElement().satisfies(e -> {
            assertThat(e.toModel()).isEqualTo("mb");
            assertThat(e.reason()).isEqualTo("server_error");
        });
        ChatAttempt servedAttempt = audit.attempts.get(1);
        assertThat(servedAttempt.result().billable()).isEqualTo(Billable.YES);
        assertThat(servedAttempt.result().costUsd()).isEqualByComparingTo("0.000020");
    }

    @Test
    void aFailureThatQuotesAKeyIsAuditedAndReportedWithoutIt() {
        a.reply = new ChatReply.Failed(
                new Outcome.Rejected(RejectionKind.CONFIG, "invalid_api_key", "bad key " + KEY, 401, null));
        var result = engine.complete(chain(Trigger.all(), "ma"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        assertThat(result)
                .isInstanceOfSatisfying(
                        ChainResult.Failed.class,
                        failed -> assertThat(failed.failure().toString()).doesNotContain(KEY));
        assertThat(audit.attempts)
                .singleElement()
                .satisfies(attempt -> assertThat(attempt.result().message()).contains("bad key [redacted]"));
    }

    @Test
    void aStreamFailureThatQuotesAKeyIsAuditedWithoutIt() {
        a.events = List.of(new ChatEvent.Failed(new Outcome.Unavailable("stream_error", "echo Key " + KEY, 200, null)));
        var start = engine.stream(chain(Trigger.all(), "ma"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        assertThat(start.toString()).doesNotContain(KEY);
        assertThat(audit.attempts)
                .singleElement()
                .satisfies(attempt -> assertThat(attempt.result().message()).contains("echo Key [redacted]"));
    }

    @Test
    void aPolicyRejectionNeverReachesAnotherModel() {
        a.reply = new ChatReply.Failed(
                new Outcome.Rejected(RejectionKind.POLICY, "content_policy_violation", "no", 400, null));
        b.reply = served("from b");
        var result = engine.complete(chain(Trigger.all(), "ma", "mb"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        assertThat(result).isInstanceOfSatisfying(ChainResult.Failed.class, failed -> {
            assertThat(failed.failure().kind()).isEqualTo(ChainFailure.Kind.REJECTED);
            assertThat(failed.failure().status()).isEqualTo(400);
            assertThat(failed.failure().code()).isEqualTo("content_policy_violation");
        });
        assertThat(b.calls).isZero();
        assertThat(audit.events).isEmpty();
    }

    @Test
    void anUnconfirmedAttemptStopsTheChainInALaneThatSaysStop() {
        a.reply = new ChatReply.Failed(new Outcome.Unconfirmed("read_timeout", "late", 0, null));
        b.reply = served("from b");
        var result = engine.complete(chain(Trigger.all(), "ma", "mb"), REQUEST, caller(UnconfirmedPolicy.STOP));
        assertThat(result).isInstanceOfSatisfying(ChainResult.Failed.class, failed -> {
            assertThat(failed.failure().status()).isEqualTo(502);
            assertThat(failed.failure().code()).isEqualTo("all_models_failed");
        });
        assertThat(b.calls).isZero();
        assertThat(audit.attempts.getFirst().result().billable()).isEqualTo(Billable.UNKNOWN);
        assertThat(audit.attempts.getFirst().result().costUsd())
                .as("the prompt is at risk")
                .isPositive();
    }

    @Test
    void everyModelRateLimitedIs429AndAMixIs502() {
        a.reply = new ChatReply.Failed(new Outcome.Unavailable("rate_limit_exceeded", "slow down", 429, null));
        b.reply = new ChatReply.Failed(new Outcome.Unavailable("rate_limit_exceeded", "slow down", 429, null));
        c.reply = new ChatReply.Failed(new Outcome.Unavailable("overloaded", "busy", 503, null));
        var limited = engine.complete(chain(Trigger.all(), "ma", "mb"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        assertThat(((ChainResult.Failed) limited).failure().status()).isEqualTo(429);
        var mixed =
                engine.complete(chain(Trigger.all(), "ma", "mb", "mc"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        assertThat(((ChainResult.Failed) mixed).failure().status()).isEqualTo(502);
        assertThat(mixed.attempts()).hasSize(3);
    }

    @Test
    void anOpenBreakerSkipsItsModelWithoutCallingIt() {
        breakerStore.open("pa", Instant.now().plusSeconds(60), "test", "n", Instant.now());
        breakers.refresh("pa");
        b.reply = served("from b");
        var result = engine.complete(chain(Set.of(), "ma", "mb"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        assertThat(result).isInstanceOf(ChainResult.Served.class);
        assertThat(a.calls).isZero();
        assertThat(result.attempts().getFirst().result().outcome()).isEqualTo("skipped");
        assertThat(audit.events)
                .singleElement()
                .extracting(FailoverEvent::reason)
                .isEqualTo("skipped");
    }

    @Test
    void aStreamWithoutTheVendorsCountIsServedWithAnEstimateLabelledAsOne() throws Exception {
        a.events = List.of(
                new ChatEvent.Token("Hi"),
                new ChatEvent.Token(" you"),
                new ChatEvent.Finished("stop", Optional.empty(), Optional.empty(), Optional.empty()));
        var start = engine.stream(chain(Trigger.all(), "ma"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        try (LockedStream locked = (LockedStream) start) {
            assertThat(locked.next()).isEqualTo(new StreamPiece.Text("Hi"));
            assertThat(locked.next()).isEqualTo(new StreamPiece.Text(" you"));
            assertThat(locked.next()).isInstanceOfSatisfying(StreamPiece.Done.class, done -> {
                assertThat(done.usage().estimated()).isTrue();
                assertThat(done.usage().completionTokens()).isEqualTo(2);
            });
        }
        assertThat(audit.attempts.getLast().result().usage().estimated()).isTrue();
    }

    @Test
    void aStreamFailsOverBeforeItsFirstTokenAndLocksToTheModelThatProducedOne() throws Exception {
        a.events = List.of(
                new ChatEvent.Token(""),
                new ChatEvent.Failed(new Outcome.Unconfirmed("connection_lost", "cut", 200, null)));
        b.events = List.of(
                new ChatEvent.Token(""),
                new ChatEvent.Token("Hi"),
                new ChatEvent.Token(" you"),
                new ChatEvent.Finished("stop", Optional.of(new TokenUsage(3, 2)), Optional.empty(), Optional.empty()));
        var start = engine.stream(chain(Trigger.all(), "ma", "mb"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        assertThat(start).isInstanceOf(LockedStream.class);
        try (LockedStream locked = (LockedStream) start) {
            assertThat(locked.model().name()).isEqualTo("mb");
            assertThat(locked.earlierAttempts())
                    .singleElement()
                    .extracting(x -> x.result().outcome())
                    .isEqualTo("unconfirmed");
            assertThat(locked.next()).isEqualTo(new StreamPiece.Text("Hi"));
            assertThat(locked.next()).isEqualTo(new StreamPiece.Text(" you"));
            assertThat(locked.next()).isInstanceOfSatisfying(StreamPiece.Done.class, done -> {
                assertThat(done.usage()).isEqualTo(new TokenUsage(3, 2));
                assertThat(done.attempts())
                        .extracting(x -> x.result().outcome())
                        .containsExactly("unconfirmed", "served");
            });
        }
        assertThat(audit.attempts).hasSize(2);
        assertThat(audit.attempts.get(1).firstToken()).isPresent();
    }

    @Test
    void aSilentStreamTimesOutAtItsFirstTokenDeadlineAndFailsOver() {
        a.events = List.of(new ChatEvent.Token(""));
        b.events = List.of(
                new ChatEvent.Token("ok"),
                new ChatEvent.Finished("stop", Optional.empty(), Optional.empty(), Optional.empty()));
        var start =
                engine.stream(chain(Set.of(Trigger.TIMEOUT), "ma", "mb"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        assertThat(start).isInstanceOf(LockedStream.class);
        ((LockedStream) start).close();
        ChatAttempt late = audit.attempts.getFirst();
        assertThat(late.result().errorCode()).contains("first_token_timeout");
        assertThat(late.result().billable()).isEqualTo(Billable.UNKNOWN);
        assertThat(a.closed).isTrue();
    }

    @Test
    void aFailureAfterTheFirstTokenIsABrokenStreamNeverAFailover() throws Exception {
        a.events = List.of(
                new ChatEvent.Token("Hel"),
                new ChatEvent.Failed(new Outcome.Unconfirmed("connection_lost", "cut", 200, null)));
        b.events = List.of(new ChatEvent.Token("never"));
        var locked = (LockedStream)
                engine.stream(chain(Trigger.all(), "ma", "mb"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        assertThat(locked.next()).isEqualTo(new StreamPiece.Text("Hel"));
        assertThat(locked.next())
                .isInstanceOfSatisfying(
                        StreamPiece.Broken.class,
                        broken -> assertThat(broken.outcome()).isInstanceOf(Outcome.Unconfirmed.class));
        assertThat(b.calls).isZero();
        assertThat(audit.attempts).singleElement().satisfies(x -> {
            assertThat(x.result().outcome()).isEqualTo("unconfirmed");
            assertThat(x.result().usage().completionTokens()).isEqualTo(1);
        });
    }

    @Test
    void aClientLeavingMidStreamIsRecordedAsUnconfirmed() throws Exception {
        a.events = List.of(new ChatEvent.Token("Hel"));
        var locked =
                (LockedStream) engine.stream(chain(Trigger.all(), "ma"), REQUEST, caller(UnconfirmedPolicy.FAILOVER));
        locked.next();
        locked.close();
        assertThat(audit.attempts)
                .singleElement()
                .satisfies(x -> assertThat(x.result().errorCode()).contains("client_disconnected"));
        assertThat(a.closed).isTrue();
    }

    /** An adapter that answers as told and counts its calls. */
    private static final class Scripted implements ChatAdapter {
        volatile ChatReply reply;
        volatile List<ChatEvent> events = List.of();
        volatile int calls;
        volatile boolean closed;

        @Override
        public ChatReply complete(ChatCall call) {
            calls++;
            return reply;
        }

        @Override
        public ChatStream stream(ChatCall call) {
            calls++;
            Deque<ChatEvent> queue = new ArrayDeque<>(events);
            return new ChatStream() {
                @Override
                public Optional<ChatEvent> next(Duration wait) throws InterruptedException {
                    ChatEvent event = queue.poll();
                    if (event == null) {
                        Thread.sleep(wait);
                    }
                    return Optional.ofNullable(event);
                }

                @Override
                public boolean requestSent() {
                    return true;
                }

                @Override
                public void close() {
                    closed = true;
                }
            };
        }
    }

    private static final class RecordingAudit implements ChatAuditSink {
        final List<ChatAttempt> attempts = new CopyOnWriteArrayList<>();
        final List<FailoverEvent> events = new CopyOnWriteArrayList<>();

        @Override
        public void attempt(ChatAttempt attempt) {
            attempts.add(attempt);
        }

        @Override
        public void failover(FailoverEvent event) {
            events.add(event);
        }
    }

    private static final class NoSpend implements SpendStore {
        @Override
        public Hold tryHold(HoldRequest request) {
            return new Hold.Uncapped();
        }

        @Override
        public void settle(UUID holdId, Billable billable, BigDecimal costUsd, Instant at) {}

        @Override
        public Spend providerSpend(String provider, LocalDate day) {
            return Spend.NONE;
        }

        @Override
        public int sweepHolds(Instant now, int limit) {
            return 0;
        }
    }

    /** Breaker state in memory: enough to open one by hand. */
}
