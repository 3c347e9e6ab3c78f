package io.idem.postgres;

import static io.idem.testkit.JobSpecBuilder.aJobSpec;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.chat.AttemptResult;
import io.idem.core.chat.ChatAttempt;
import io.idem.core.chat.ChatCaller;
import io.idem.core.chat.ChatModel;
import io.idem.core.chat.TokenUsage;
import io.idem.core.chat.UnconfirmedPolicy;
import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.AttemptDraft;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.DashboardReads.Fallbacks;
import io.idem.core.spi.DashboardReads.ProviderLatency;
import io.idem.core.spi.DashboardReads.ProviderSpend;
import io.idem.core.spi.DashboardReads.Window;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.Settlement;
import io.idem.testkit.Outcomes;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's series over a scripted three hours, driven through the real stores (intake, the
 * queue, review, the chat audit) at known times: every bucket holds exactly what was driven into it.
 */
class PgDashboardReadsTest {
    private static final Instant T0 = Instant.parse("2026-01-05T09:00:00Z");
    private static final Window WINDOW = new Window(T0, Duration.ofHours(1), 3, at(150));

    private static Database db;
    private static PgDashboardReads reads;

    @BeforeAll
    static void drive() throws InterruptedException {
        db = TestDatabases.fresh();
        reads = new PgDashboardReads(db);
        Script script = new Script(db);
        // bucket 0: A served by primary; B fails over to backup; chat call X fails over too
        script.job(10).call("primary", Outcomes.confirmed(), 200, 10).end(new JobMove.Succeed(List.of()));
        script.job(20)
                .call("primary", Outcomes.unavailable(), 50, 20)
                .end(new JobMove.Continue())
                .call("backup", confirmed("0.05"), 300, 21)
                .end(new JobMove.Succeed(List.of()));
        script.chat(
                30,
                List.of(
                        chat("primary", "unavailable", Billable.NO, "0", 30),
                        chat("backup", "served", Billable.YES, "0.002", 400)));
        // bucket 1: C parks (unknown 0.04), chat Y's billing stays unknown (0.003), E is in flight at the hour
        UUID parked = script.job(70, "primary")
                .call("primary", Outcomes.unconfirmed(), 1000, 71)
                .end(new JobMove.Park("unconfirmed"))
                .id();
        script.chat(80, List.of(chat("primary", "unconfirmed", Billable.UNKNOWN, "0.003", 2000)));
        script.job(115).call("primary", Outcomes.confirmed(), 600_000, 125).end(new JobMove.Succeed(List.of()));
        // bucket 2: reconcile finds C never delivered (it had no other candidate: failed); D parks and stays
        script.notDelivered(parked, 130);
        script.job(140).call("primary", Outcomes.unconfirmed(), 1000, 141).end(new JobMove.Park("unconfirmed"));
        script.close();
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void spendIsTheBilledCostPerProviderByTheBucketItsCallStartedIn() {
        assertThat(reads.spend(WINDOW))
                .usingRecursiveFieldByFieldElementComparatorOnFields("provider", "bucket")
                .containsExactly(spend("backup", 0, "0.052"), spend("primary", 0, "0.04"), spend("primary", 1, "0.04"));
        assertThat(reads.spend(WINDOW))
                .extracting(s -> s.billedUsd().stripTrailingZeros().toPlainString())
                .containsExactly("0.052", "0.04", "0.04");
    }

    @Test
    void fallbacksCountJobsAndChatCallsThatNeededASecondAttempt() {
        assertThat(reads.fallbacks(WINDOW))
                .containsExactly(
                        new Fallbacks(0, 2, 1, 1, 1), new Fallbacks(1, 2, 0, 1, 0), new Fallbacks(2, 1, 0, 0, 0));
    }

    @Test
    void moneyAtRiskIsWhatWasUnknownAtEachBucketEnd() {
        assertThat(reads.moneyAtRisk(WINDOW))
                .extracting(usd -> usd.stripTrailingZeros().toPlainString())
                .as("09:00-10:00 nothing open; at 11:00 C parked, Y unknown, E in flight; now C is settled, D parked")
                .containsExactly("0", "0.083", "0.043");
    }

    @Test
    void reviewDepthIsHowManyJobsWereParkedAtEachBucketEnd() {
        assertThat(reads.reviewDepth(WINDOW)).containsExactly(0L, 1L, 1L);
    }

    @Test
    void latencyIsTheP95PerProviderAndBucketOverJobAndChatCalls() {
        assertThat(reads.latency(WINDOW))
                .containsExactly(
                        new ProviderLatency("backup", 0, 400, 2),
                        new ProviderLatency("primary", 0, 200, 3),
                        new ProviderLatency("primary", 1, 600_000, 3),
                        new ProviderLatency("primary", 2, 1000, 1));
    }

    @Test
    void aWindowThatEndsEarlierSeesTheParkedJobStillAtRisk() {
        Window earlier = new Window(T0, Duration.ofMinutes(30), 5, at(135));
        assertThat(reads.moneyAtRisk(earlier))
                .extracting(usd -> usd.stripTrailingZeros().toPlainString())
                .as("ends 09:30, 10:00, 10:30, 11:00, 11:15 (now): C unknown from 10:10 until 11:10, D not yet started")
                .containsExactly("0", "0", "0.043", "0.083", "0.003");
        assertThat(reads.reviewDepth(earlier)).containsExactly(0L, 0L, 1L, 1L, 0L);
    }

    private static ProviderSpend spend(String provider, int bucket, String usd) {
        return new ProviderSpend(provider, bucket, new BigDecimal(usd));
    }

    private static Outcome.Confirmed confirmed(String usd) {
        Outcome.Confirmed base = Outcomes.confirmed();
        return new Outcome.Confirmed(base.result(), 200, "gen_2", new BigDecimal(usd));
    }

    private static Instant at(int minutes) {
        return T0.plus(Duration.ofMinutes(minutes));
    }

    private record ChatCall(String provider, String outcome, Billable billable, String usd, long latencyMs) {}

    private static ChatCall chat(String provider, String outcome, Billable billable, String usd, long latencyMs) {
        return new ChatCall(provider, outcome, billable, usd, latencyMs);
    }

    /** Drives jobs and chat calls through the real stores, each step at its own minute past T0. */
    private static final class Script implements AutoCloseable {
        private final PgJobIntake intake;
        private final PgJobQueueStore queue;
        private final PgReviewStore review;
        private final PgChatAudit chat;

        Script(Database db) {
            intake = new PgJobIntake(db);
            queue = new PgJobQueueStore(db);
            review = new PgReviewStore(db);
            chat = new PgChatAudit(db);
        }

        ScriptedJob job(int minute, String... candidates) {
            var spec = candidates.length == 0 ? aJobSpec() : aJobSpec().candidates(candidates);
            UUID id = intake.accept("alice", spec.build(), null, at(minute)).jobId();
            ClaimedJob claimed =
                    queue.claim("w", 1, at(minute), Duration.ofHours(1)).getFirst();
            assertThat(claimed.job().id()).isEqualTo(id);
            return new ScriptedJob(id, claimed, minute);
        }

        void notDelivered(UUID jobId, int minute) {
            var held = review.holdOne(jobId, at(minute), Duration.ofSeconds(30)).orElseThrow();
            UUID attempt = held.pendingAttempt().orElseThrow().id();
            assertThat(review.closeUndelivered(held, attempt, "never arrived", false, "reconciler", at(minute)))
                    .isTrue();
        }

        void chat(int minute, List<ChatCall> attempts) throws InterruptedException {
            ChatCaller caller = new ChatCaller(
                    UUID.randomUUID(), Optional.empty(), "alice", "standard", UnconfirmedPolicy.FAILOVER, Map.of());
            Instant start = at(minute);
            for (int i = 0; i < attempts.size(); i++) {
                ChatCall a = attempts.get(i);
                var model = new ChatModel("m-" + a.provider(), a.provider(), "m", BigDecimal.ZERO, BigDecimal.ZERO);
                var result = new AttemptResult(
                        a.outcome(),
                        Optional.empty(),
                        Optional.empty(),
                        200,
                        Optional.empty(),
                        TokenUsage.NONE,
                        a.billable(),
                        new BigDecimal(a.usd()),
                        Optional.empty(),
                        Optional.empty());
                Duration latency = Duration.ofMillis(a.latencyMs());
                chat.attempt(
                        new ChatAttempt(caller, "m", false, i + 1, model, result, start, latency, Optional.empty()));
                start = start.plus(latency);
            }
            assertThat(chat.awaitWritten(Duration.ofSeconds(10))).isTrue();
        }

        @Override
        public void close() {
            chat.close();
        }

        /** One claimed job: each call is written ahead at its start and settled at its minute. */
        final class ScriptedJob {
            private final UUID id;
            private final ClaimedJob claimed;
            private final int startMinute;
            private UUID attempt;
            private String provider;
            private Outcome outcome;
            private long latencyMs;
            private int endMinute;

            ScriptedJob(UUID id, ClaimedJob claimed, int startMinute) {
                this.id = id;
                this.claimed = claimed;
                this.startMinute = startMinute;
            }

            UUID id() {
                return id;
            }

            ScriptedJob call(String provider, Outcome outcome, long latencyMs, int endMinute) {
                this.attempt = UUID.randomUUID();
                this.provider = provider;
                this.outcome = outcome;
                this.latencyMs = latencyMs;
                this.endMinute = endMinute;
                var draft = new AttemptDraft(attempt, provider, "m", 1, new BigDecimal("0.04"));
                queue.writeAhead(claimed.lease(), draft, at(startMinute));
                return this;
            }

            ScriptedJob end(JobMove move) {
                BigDecimal cost = switch (outcome.billable()) {
                    case YES -> ((Outcome.Confirmed) outcome).costUsd();
                    case UNKNOWN -> new BigDecimal("0.04");
                    case NO -> BigDecimal.ZERO;
                };
                var settlement = new Settlement(attempt, provider, outcome, latencyMs, cost, move);
                assertThat(queue.settle(claimed.lease(), settlement, "worker:w", at(endMinute)))
                        .isTrue();
                return this;
            }
        }
    }
}
