package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.spi.ProviderSignals;
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

/** Health flips and static-tier stretches become provider events once, however many nodes report them. */
class PgProviderSignalsTest {
    private final Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
    private Database db;
    private PgProviderSignals signals;

    @BeforeEach
    void open() {
        db = TestDatabases.fresh();
        signals = new PgProviderSignals(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void onlyAChangeOfVerdictIsAnEventAndAFirstHealthyVerdictIsNone() {
        assertThat(signals.health("primary", true, "ok", "a", t0)).isFalse();
        assertThat(signals.health("primary", true, "ok", "b", t0.plusSeconds(1)))
                .isFalse();
        assertThat(signals.health("primary", false, "HTTP 503", "a", t0.plusSeconds(2)))
                .isTrue();
        assertThat(signals.health("primary", false, "HTTP 503", "b", t0.plusSeconds(3)))
                .isFalse();
        assertThat(signals.health("primary", true, "ok", "b", t0.plusSeconds(4)))
                .isTrue();
        assertThat(signals.health("backup", false, "refused", "a", t0)).isTrue();
        assertThat(events())
                .containsExactly(
                        "primary provider.unhealthy HTTP 503 a",
                        "primary provider.recovered ok b",
                        "backup provider.unhealthy refused a");
        assertThat(outbox()).containsExactly("provider.unhealthy", "provider.recovered", "provider.unhealthy");
    }

    @Test
    void nodesRacingOnOneFlipWriteOneEvent() throws Exception {
        signals.health("primary", true, "ok", "a", t0);
        List<Callable<Boolean>> nodes = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String node = "node-" + i;
            nodes.add(() -> signals.health("primary", false, "down", node, t0.plusSeconds(1)));
        }
        int wrote = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (Future<Boolean> f : pool.invokeAll(nodes)) {
                wrote += f.get() ? 1 : 0;
            }
        }
        assertThat(wrote).isEqualTo(1);
        assertThat(events()).hasSize(1);
    }

    @Test
    void aStaticTierStretchIsAnnouncedOnceUntilItWasQuietForTheGap() {
        assertThat(signals.staticTierServed("canned", t0)).isTrue();
        assertThat(signals.staticTierServed("canned", t0.plusSeconds(30))).isFalse();
        Instant quietUntil = t0.plusSeconds(30).plus(ProviderSignals.STATIC_TIER_GAP);
        assertThat(signals.staticTierServed("canned", quietUntil)).isFalse();
        assertThat(signals.staticTierServed("canned", quietUntil.plusSeconds(601)))
                .isTrue();
        assertThat(signals.staticTierServed("canned", quietUntil.plusSeconds(602)))
                .isFalse();
        assertThat(outbox()).containsExactly("tier.static_active", "tier.static_active");
    }

    private List<String> events() {
        return rows("SELECT provider || ' ' || type || ' ' || (detail->>'detail') || ' ' || (detail->>'node')"
                + " FROM provider_events ORDER BY id");
    }

    private List<String> outbox() {
        return rows("SELECT type FROM outbox ORDER BY id");
    }

    private List<String> rows(String query) {
        return TestDatabases.column(db, query);
    }
}
