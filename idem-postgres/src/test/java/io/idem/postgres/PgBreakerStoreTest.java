package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.breaker.BreakerState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PgBreakerStoreTest {
    private Database db;
    private PgBreakerStore store;
    private final Instant t0 = Instant.parse("2026-12-01T10:00:00Z");

    @BeforeEach
    void open() {
        db = TestDatabases.fresh(16);
        store = new PgBreakerStore(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private int successes(List<Callable<Boolean>> calls) throws Exception {
        int won = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (Future<Boolean> f : pool.invokeAll(calls)) {
                won += f.get() ? 1 : 0;
            }
        }
        return won;
    }

    @Test
    void nodesRacingToOpenOpenItOnce() throws Exception {
        List<Callable<Boolean>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String node = "n" + i;
            calls.add(() ->
                    store.open("p", t0.plusSeconds(60), "3 failures", node, t0).isPresent());
        }
        assertThat(successes(calls)).isEqualTo(1);
        assertThat(events("breaker.open")).isEqualTo(1);
    }

    @Test
    void exactlyOneNodeTakesTheHalfOpenProbe() throws Exception {
        store.open("p", t0.plusSeconds(60), "3 failures", "a", t0);
        assertThat(store.takeProbe("p", t0.plusSeconds(200), "early", t0.plusSeconds(30)))
                .isEmpty();
        List<Callable<Boolean>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String node = "n" + i;
            calls.add(() -> store.takeProbe("p", t0.plusSeconds(200), node, t0.plusSeconds(61))
                    .isPresent());
        }
        assertThat(successes(calls)).isEqualTo(1);
        assertThat(store.load("p").orElseThrow().state()).isEqualTo(BreakerState.HALF_OPEN);
    }

    @Test
    void onlyTheProbeOwnerClosesOrReopensAndReopeningCountsUp() {
        store.open("p", t0.plusSeconds(60), "3 failures", "a", t0);
        store.takeProbe("p", t0.plusSeconds(200), "b", t0.plusSeconds(61));
        assertThat(store.close("p", "not-b", t0.plusSeconds(62))).isEmpty();
        var reopened = store.reopen("p", t0.plusSeconds(300), "probe failed", "b", t0.plusSeconds(62))
                .orElseThrow();
        assertThat(reopened.state()).isEqualTo(BreakerState.OPEN);
        assertThat(reopened.reopens()).isEqualTo(1);
        store.takeProbe("p", t0.plusSeconds(500), "c", t0.plusSeconds(301));
        assertThat(store.close("p", "c", t0.plusSeconds(302)).orElseThrow().state())
                .isEqualTo(BreakerState.CLOSED);
        assertThat(events("breaker.%")).isEqualTo(5);
    }

    @Test
    void aRateLimitOnlyLengthensAndLeavesTheBreakerWhereItIs() {
        store.open("p", t0.plusSeconds(60), "3 failures", "a", t0);

        var limited = store.rateLimit("p", t0.plusSeconds(30), "a", t0).orElseThrow();
        assertThat(limited.state()).isEqualTo(BreakerState.OPEN);
        assertThat(limited.openUntil()).contains(t0.plusSeconds(60));
        assertThat(limited.rateLimitedUntil()).contains(t0.plusSeconds(30));

        assertThat(store.rateLimit("p", t0.plusSeconds(10), "b", t0))
                .as("never shortened")
                .isEmpty();
        assertThat(store.rateLimit("p", t0.plusSeconds(45), "b", t0)
                        .orElseThrow()
                        .rateLimitedUntil())
                .contains(t0.plusSeconds(45));
        assertThat(events("provider.rate_limited")).isEqualTo(2);
    }

    @Test
    void aRateLimitOnAProviderWithoutARowLeavesItClosed() {
        var limited = store.rateLimit("fresh", t0.plusSeconds(5), "a", t0).orElseThrow();
        assertThat(limited.state()).isEqualTo(BreakerState.CLOSED);
        assertThat(store.loadAll().get("fresh").rateLimitedUntil()).contains(t0.plusSeconds(5));
        assertThat(store.open("fresh", t0.plusSeconds(60), "3 failures", "a", t0))
                .as("the breaker still opens from closed")
                .isPresent();
    }

    @Test
    void anUnusableAnswerOpensFromAnyStateRecordsItsReasonAndReachesTheOutbox() {
        var closedOff = store.unusable("p", t0.plusSeconds(300), "insufficient_quota (HTTP 429)", "a", t0)
                .orElseThrow();
        assertThat(closedOff.state()).isEqualTo(BreakerState.OPEN);
        assertThat(closedOff.openUntil()).contains(t0.plusSeconds(300));
        assertThat(store.unusable("p", t0.plusSeconds(200), "http_401 (HTTP 401)", "b", t0))
                .as("an open breaker is never shortened")
                .isEmpty();

        store.takeProbe("p", t0.plusSeconds(400), "c", t0.plusSeconds(300));
        var again = store.unusable("p", t0.plusSeconds(600), "http_401 (HTTP 401)", "c", t0.plusSeconds(301))
                .orElseThrow();
        assertThat(again.state()).isEqualTo(BreakerState.OPEN);
        assertThat(again.probeUntil()).isEmpty();

        assertThat(events("breaker.open")).isEqualTo(2);
        assertThat(events("provider.unusable")).isEqualTo(2);
        assertThat(text("SELECT string_agg(data->>'provider' || ' ' || (data->>'reason'), ', ' ORDER BY id)"
                        + " FROM outbox WHERE type = 'provider.unusable'"))
                .isEqualTo("p insufficient_quota (HTTP 429), p http_401 (HTTP 401)");
        assertThat(text("SELECT count(*) FROM outbox WHERE type = 'breaker.opened'"))
                .isEqualTo("2");
    }

    private String text(String sql) {
        return db.withConnection(c -> {
            try (var ps = c.prepareStatement(sql);
                    var rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        });
    }

    private int events(String type) {
        return db.withConnection(c -> {
            try (var ps = c.prepareStatement("SELECT count(*) FROM provider_events WHERE type LIKE ?")) {
                ps.setString(1, type);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }
}
