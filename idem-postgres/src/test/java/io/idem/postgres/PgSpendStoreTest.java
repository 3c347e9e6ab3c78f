package io.idem.postgres;

import static io.idem.testkit.JobSpecBuilder.aJobSpec;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.budget.BudgetScope;
import io.idem.core.budget.Hold;
import io.idem.core.budget.HoldRequest;
import io.idem.core.domain.Billable;
import io.idem.core.spi.AttemptDraft;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.Settlement;
import io.idem.testkit.Outcomes;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Budget holds on real PostgreSQL: hard caps under concurrency, settling, events once, the sweeper. */
class PgSpendStoreTest {
    private static final BigDecimal CAP = new BigDecimal("0.05");
    private final Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
    private final LocalDate day = LocalDate.parse("2026-12-01");
    private Database db;
    private PgSpendStore store;

    @BeforeEach
    void open() {
        db = TestDatabases.fresh(24);
        store = new PgSpendStore(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static BigDecimal usd(String amount) {
        return new BigDecimal(amount);
    }

    private HoldRequest chat(UUID id, String provider, Optional<BigDecimal> cap, Optional<UUID> key, String cost) {
        return new HoldRequest(id, provider, cap, Optional.empty(), key, usd(cost), t0, t0.plusSeconds(60));
    }

    private Hold hold(UUID id, String cost) {
        return store.tryHold(chat(id, "primary", Optional.of(CAP), Optional.empty(), cost));
    }

    private UUID keyWithDailyBudget(String budget) {
        UUID id = UUID.randomUUID();
        db.withConnection(c -> {
            try (var ps = c.prepareStatement("""
                    INSERT INTO api_keys (id, prefix, secret_hash, owner, role, created_at, daily_budget_usd)
                    VALUES (?, 'idem_t', ?, 'budgeted', 'client', ?, ?)
                    """)) {
                ps.setObject(1, id);
                ps.setBytes(2, id.toString().getBytes());
                ps.setTimestamp(3, JobRows.timestamp(t0));
                ps.setBigDecimal(4, usd(budget));
                return ps.executeUpdate();
            }
        });
        return id;
    }

    private int held(List<Callable<Hold>> calls) throws Exception {
        int held = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(calls.size())) {
            for (Future<Hold> f : pool.invokeAll(calls)) {
                held += f.get() instanceof Hold.Held ? 1 : 0;
            }
        }
        return held;
    }

    private long events(String type) {
        return db.withConnection(c -> {
            try (var ps = c.prepareStatement("SELECT count(*) FROM budget_events WHERE type = ?")) {
                ps.setString(1, type);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    @Test
    void twentyConcurrentHoldsNeverPassTheBudget() throws Exception {
        List<Callable<Hold>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(() -> hold(UUID.randomUUID(), "0.01"));
        }

        assertThat(held(calls)).isEqualTo(5);
        assertThat(store.providerSpend("primary", day).heldUsd()).isEqualByComparingTo("0.05");
        assertThat(store.providerSpend("primary", day).settledUsd()).isEqualByComparingTo("0");
    }

    @Test
    void concurrentHoldsOnTwoProvidersAndOneKeyBudgetNeverPassTheKeysBudget() throws Exception {
        UUID key = keyWithDailyBudget("0.03");
        List<Callable<Hold>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            boolean capped = i % 2 == 0;
            calls.add(() -> store.tryHold(chat(
                    UUID.randomUUID(),
                    capped ? "primary" : "backup",
                    capped ? Optional.of(CAP) : Optional.empty(),
                    Optional.of(key),
                    "0.01")));
        }

        assertThat(held(calls)).isEqualTo(3);
    }

    @Test
    void aRefusalNamesTheBudgetWithoutRoomAndHoldsNothingAnywhere() {
        UUID key = keyWithDailyBudget("0.02");
        Hold refused = store.tryHold(chat(UUID.randomUUID(), "primary", Optional.of(CAP), Optional.of(key), "0.03"));

        assertThat(refused).isEqualTo(new Hold.Refused(BudgetScope.KEY_DAILY, usd("0.020000")));
        assertThat(store.providerSpend("primary", day).heldUsd()).isEqualByComparingTo("0");
    }

    @Test
    void settlingReplacesTheHoldWithWhatTheCallCostAndWarnsOnceOnSettledSpendOnly() {
        List<UUID> unbilled = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            UUID id = UUID.randomUUID();
            assertThat(hold(id, "0.015")).isInstanceOf(Hold.Held.class);
            unbilled.add(id);
        }
        unbilled.forEach(id -> store.settle(id, Billable.NO, BigDecimal.ZERO, t0)); // three 503s
        assertThat(events("budget.warning")).isZero();

        UUID billed = UUID.randomUUID();
        UUID unknown = UUID.randomUUID();
        hold(billed, "0.02");
        hold(unknown, "0.02");
        store.settle(billed, Billable.YES, usd("0.01"), t0);
        assertThat(events("budget.warning")).isZero();
        store.settle(unknown, Billable.UNKNOWN, usd("0.02"), t0);
        store.settle(unknown, Billable.UNKNOWN, usd("0.02"), t0); // settling again changes nothing

        assertThat(store.providerSpend("primary", day)).satisfies(s -> {
            assertThat(s.settledUsd()).isEqualByComparingTo("0.03");
            assertThat(s.heldUsd()).isEqualByComparingTo("0");
        });
        assertThat(events("budget.warning")).isEqualTo(1);
        assertThat(events("budget.exhausted")).isZero();
        assertThat(hold(UUID.randomUUID(), "0.02")).isInstanceOf(Hold.Held.class);
        assertThat(hold(UUID.randomUUID(), "0.001")).isInstanceOf(Hold.Refused.class);
    }

    @Test
    void theFullBudgetIsAnnouncedOnceAsExhaustedAndAlsoAsAProviderEvent() {
        for (int i = 0; i < 5; i++) {
            UUID id = UUID.randomUUID();
            hold(id, "0.01");
            store.settle(id, Billable.YES, usd("0.01"), t0);
        }
        assertThat(events("budget.warning")).isEqualTo(1);
        assertThat(events("budget.exhausted")).isEqualTo(1);
        long providerEvents = db.withConnection(c -> {
            try (var rs = c.createStatement()
                    .executeQuery(
                            "SELECT count(*) FROM provider_events WHERE provider = 'primary' AND day IS NOT NULL")) {
                rs.next();
                return rs.getLong(1);
            }
        });
        assertThat(providerEvents).isEqualTo(2);
    }

    @Test
    void theSweeperSettlesOrphanedHoldsFromTheirAttemptsOrAsUnknown() {
        var intake = new PgJobIntake(db);
        var queue = new PgJobQueueStore(db);
        UUID jobId = intake.accept("alice", aJobSpec().build(), null, t0).jobId();
        var lease = queue.claim("w", 1, t0, Duration.ofMinutes(5)).getFirst().lease();
        UUID written = UUID.randomUUID();
        UUID neverWritten = UUID.randomUUID();
        UUID chatHold = UUID.randomUUID();
        for (UUID id : List.of(written, neverWritten)) {
            assertThat(store.tryHold(new HoldRequest(
                            id,
                            "primary",
                            Optional.of(CAP),
                            Optional.of(jobId),
                            Optional.empty(),
                            usd("0.01"),
                            t0,
                            t0.plusSeconds(60))))
                    .isInstanceOf(Hold.Held.class);
        }
        hold(chatHold, "0.01");
        queue.writeAhead(lease, new AttemptDraft(written, "primary", "m", 1, usd("0.01")), t0);
        Instant later = t0.plusSeconds(61);
        assertThat(store.sweepHolds(later, 10)).isEqualTo(2); // the written attempt is still in flight

        queue.settle(
                lease,
                new Settlement(
                        written, "primary", Outcomes.unconfirmed(), 5, usd("0.01"), new JobMove.Park("unconfirmed")),
                "w",
                later);
        assertThat(store.sweepHolds(later, 10)).isEqualTo(1);

        assertThat(store.providerSpend("primary", day)).satisfies(s -> {
            assertThat(s.settledUsd()).isEqualByComparingTo("0.02"); // the chat hold and the parked attempt
            assertThat(s.heldUsd()).isEqualByComparingTo("0");
        });
    }

    @Test
    void aBudgetFirstUsedMidDayStartsFromWhatTheAuditAlreadyHolds() {
        var intake = new PgJobIntake(db);
        var queue = new PgJobQueueStore(db);
        intake.accept("alice", aJobSpec().build(), null, t0);
        var lease = queue.claim("w", 1, t0, Duration.ofMinutes(5)).getFirst().lease();
        queue.writeAhead(lease, new AttemptDraft(UUID.randomUUID(), "primary", "m", 1, usd("0.04")), t0);

        assertThat(hold(UUID.randomUUID(), "0.02")).isEqualTo(new Hold.Refused(BudgetScope.PROVIDER, usd("0.05")));
        assertThat(hold(UUID.randomUUID(), "0.01")).isInstanceOf(Hold.Held.class);
    }
}
