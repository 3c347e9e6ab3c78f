package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.alert.Alert;
import io.idem.core.alert.AlertThresholds;
import io.idem.core.alert.IncidentWatch;
import io.idem.core.alert.ThresholdRules;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The threshold rules over real PostgreSQL, two nodes' watches on one database with a fixed clock:
 * one shared incident per rule and subject, an alert only after the quiet period, a blip none, and
 * one recovery that says how long it lasted.
 */
class IncidentWatchTest {
    private static final Duration QUIET = Duration.ofSeconds(60);
    private static final Set<String> PROVIDERS = Set.of("primary", "backup", "static");
    private final Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
    private Database db;
    private IncidentWatch nodeA;
    private IncidentWatch nodeB;

    @BeforeEach
    void open() {
        db = TestDatabases.fresh(8);
        AlertThresholds rules = AlertThresholds.DEFAULTS.withStaticProviders(Set.of("static"));
        nodeA = watch(rules);
        nodeB = watch(rules);
    }

    private IncidentWatch watch(AlertThresholds rules) {
        PgBacklogReads backlog = new PgBacklogReads(db);
        return new IncidentWatch(rules, PROVIDERS, new PgSignalReads(db, backlog), new PgIncidentLedger(db), QUIET);
    }

    @AfterEach
    void close() {
        db.close();
    }

    /** One chat call's attempts, in order, each {@code provider:outcome}, started at {@code at}. */
    private void call(Instant at, String cost, String... attempts) {
        UUID callId = UUID.randomUUID();
        for (int seq = 0; seq < attempts.length; seq++) {
            String[] parts = attempts[seq].split(":");
            boolean served = parts[1].equals("served");
            attempt(callId, seq, parts[0], parts[1], served ? "yes" : "no", served ? cost : "0", at);
        }
    }

    private void attempt(
            UUID callId, int seq, String provider, String outcome, String billable, String cost, Instant at) {
        db.withConnection(c -> {
            try (var ps = c.prepareStatement("""
                    INSERT INTO chat_attempts (call_id, seq, owner, lane, requested_model, model, provider,
                        vendor_model, stream, outcome, latency_ms, billable, cost_usd, started_at, finished_at)
                    VALUES (?, ?, 'o', 'standard', 'm', 'm', ?, 'vm', false, ?, 10, ?, ?, ?, ?)
                    """)) {
                ps.setObject(1, callId);
                ps.setInt(2, seq);
                ps.setString(3, provider);
                ps.setString(4, outcome);
                ps.setString(5, billable);
                ps.setBigDecimal(6, new BigDecimal(cost));
                ps.setTimestamp(7, JobRows.timestamp(at));
                ps.setTimestamp(8, JobRows.timestamp(at));
                return ps.executeUpdate();
            }
        });
    }

    private static List<String> kinds(List<Alert> alerts) {
        return alerts.stream().map(Alert::kind).toList();
    }

    @Test
    void anIncidentAlertsOnceItOutlastsTheQuietPeriodWithOneKeyOnEveryNodeAndRecoversOnce() {
        for (int i = 0; i < 24; i++) {
            call(t0.minusSeconds(30), "0.01", "primary:unavailable", "backup:served");
        }
        assertThat(nodeA.evaluate(t0)).as("not yet past the quiet period").isEmpty();
        assertThat(nodeB.evaluate(t0.plusSeconds(5))).isEmpty();

        List<Alert> a = nodeA.evaluate(t0.plusSeconds(61));
        List<Alert> b = nodeB.evaluate(t0.plusSeconds(62));
        assertThat(kinds(a)).containsExactlyInAnyOrder(ThresholdRules.ERROR_RATE, ThresholdRules.FALLBACK_SHARE);
        assertThat(a.stream().map(Alert::key).sorted().toList())
                .as("both nodes name the same incidents")
                .isEqualTo(b.stream().map(Alert::key).sorted().toList());
        Alert errors = a.stream()
                .filter(x -> x.kind().equals(ThresholdRules.ERROR_RATE))
                .findFirst()
                .orElseThrow();
        assertThat(errors.provider()).isEqualTo("primary");
        assertThat(errors.text()).contains("primary failed 100 %", "(24 of 24)", "5 min");

        // past both windows (5 and 15 minutes) nothing is failing any more: one recovery per incident, on either node
        List<Alert> recovered = nodeB.evaluate(t0.plusSeconds(1000));
        assertThat(kinds(recovered))
                .containsExactlyInAnyOrder(
                        ThresholdRules.ERROR_RATE + ".resolved", ThresholdRules.FALLBACK_SHARE + ".resolved");
        assertThat(recovered.getFirst().text()).contains("after 16 min");
        assertThat(nodeA.evaluate(t0.plusSeconds(1010)))
                .as("the other node derives the same recovery keys (the delivery ledger sends them once)")
                .extracting(Alert::key)
                .containsExactlyInAnyOrderElementsOf(
                        recovered.stream().map(Alert::key).toList());
        assertThat(nodeA.evaluate(t0.plusSeconds(1000 + 16 * 60)))
                .as("recoveries are derived for 15 min")
                .isEmpty();
    }

    @Test
    void aBreachThatClearsInsideTheQuietPeriodIsNoAlert() {
        for (int i = 0; i < 12; i++) {
            call(t0.minusSeconds(280), "0.01", "primary:unavailable", "backup:served");
        }
        assertThat(nodeA.evaluate(t0)).isEmpty();
        // 30 s later the failures have left the 5-minute window
        assertThat(nodeA.evaluate(t0.plusSeconds(30))).isEmpty();
        assertThat(nodeB.evaluate(t0.plusSeconds(120))).isEmpty();
    }

    @Test
    void fewCallsSayNothingHoweverBadlyTheyWent() {
        for (int i = 0; i < 3; i++) {
            call(t0.minusSeconds(10), "0.01", "primary:unavailable", "backup:unavailable");
        }
        nodeA.evaluate(t0);
        assertThat(nodeA.evaluate(t0.plusSeconds(61))).isEmpty();
    }

    @Test
    void theStaticTierAnsweringIsAnIncident() {
        call(t0.minusSeconds(10), "0", "primary:unavailable", "static:served");
        nodeA.evaluate(t0);
        List<Alert> alerts = nodeA.evaluate(t0.plusSeconds(60));
        assertThat(kinds(alerts)).containsExactly(ThresholdRules.STATIC_TIER);
        assertThat(alerts.getFirst().text()).contains("static tier (static)", "1 answers");
    }

    @Test
    void todaysSpendFarAboveTheTrailingAverageIsCostDrift() {
        for (int day = 1; day <= 7; day++) {
            call(t0.minus(Duration.ofDays(day)), "1.00", "primary:served");
        }
        for (int i = 0; i < 5; i++) {
            call(t0.minusSeconds(60 * i), "1.00", "primary:served");
        }
        nodeA.evaluate(t0);
        List<Alert> alerts = nodeA.evaluate(t0.plusSeconds(60));
        assertThat(kinds(alerts)).containsExactly(ThresholdRules.COST_DRIFT);
        assertThat(alerts.getFirst().text()).contains("$5.00 today", "5.00x", "$1.00 a day");
    }

    @Test
    void aProviderWithNoHistoryNeverDrifts() {
        for (int i = 0; i < 5; i++) {
            call(t0.minusSeconds(60 * i), "3.00", "backup:served");
        }
        nodeA.evaluate(t0);
        assertThat(nodeA.evaluate(t0.plusSeconds(60))).isEmpty();
    }

    @Test
    void moneyAtRiskOverItsLimitIsAnIncident() {
        attempt(UUID.randomUUID(), 0, "primary", "unconfirmed", "unknown", "12.50", t0.minusSeconds(5));
        nodeA.evaluate(t0);
        List<Alert> alerts = nodeA.evaluate(t0.plusSeconds(60));
        assertThat(kinds(alerts)).contains(ThresholdRules.MONEY_AT_RISK);
        assertThat(alerts.stream()
                        .filter(x -> x.kind().equals(ThresholdRules.MONEY_AT_RISK))
                        .findFirst()
                        .map(Alert::text))
                .hasValueSatisfying(text -> assertThat(text).contains("$12.50 is at risk"));
        assertThat(Optional.of(alerts.getFirst().provider())).contains(ThresholdRules.ALL);
    }
}
