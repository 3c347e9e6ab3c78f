package io.idem.core.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.idem.core.domain.Billable;
import io.idem.testkit.InMemorySpendStore;
import io.idem.testkit.InMemorySpendStore.Announcement;
import io.idem.testkit.ManualClock;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Budgets as hard caps (DESIGN §6): a call holds its expected cost before it goes out and settles
 * after it; a warning at 50 % and exhausted at 100 % of settled spend, once a day; until the UTC
 * day turns.
 */
class ProviderBudgetsTest {
    private static final String P = "primary";
    private static final Duration HOLD_FOR = Duration.ofMinutes(1);
    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T12:00:00Z"));
    private final InMemorySpendStore audit = new InMemorySpendStore();
    private final ProviderBudgets budgets = new ProviderBudgets(audit, Map.of(P, usd("10")), clock, clock);

    private static BigDecimal usd(String amount) {
        return new BigDecimal(amount);
    }

    private long announced(String type) {
        return audit.announced().stream().filter(a -> a.type().equals(type)).count();
    }

    private Hold hold(String provider, String expected) {
        return hold(UUID.randomUUID(), provider, expected);
    }

    private Hold hold(UUID id, String provider, String expected) {
        return budgets.tryHold(id, provider, Optional.empty(), Optional.empty(), usd(expected), HOLD_FOR);
    }

    /** A call that holds {@code cost} and is billed exactly that. */
    private void billed(String provider, String cost) {
        UUID id = UUID.randomUUID();
        assertThat(hold(id, provider, cost)).isInstanceOf(Hold.Held.class);
        budgets.settle(id, Billable.YES, usd(cost));
    }

    @ParameterizedTest(name = "spent {0}, billed {1}: warning {2}, exhausted {3}, skipped {4}")
    @CsvSource({
        "0,  4.99, 0, 0, false",
        "0,  5,    1, 0, false", // half the budget: a warning
        "4,  1,    1, 0, false",
        "9,  0.99, 1, 0, false",
        "9,  1,    1, 1, true", // the whole budget: skipped, both thresholds announced at once
        "10, 0,    0, 0, true" // nothing billed, nothing announced; the audit alone blocks it
    })
    void thresholdsAreAnnouncedOnSettledSpendAndTheProviderSkippedAtTheFullBudget(
            String spent, String cost, long warnings, long exhausted, boolean skipped) {
        audit.spent(P, usd(spent));
        billed(P, cost);

        assertThat(announced("budget.warning")).isEqualTo(warnings);
        assertThat(announced("budget.exhausted")).isEqualTo(exhausted);
        assertThat(budgets.blocked(P)).isEqualTo(skipped ? Optional.of("budget_exhausted") : Optional.empty());
    }

    @ParameterizedTest(name = "spent {0}, in flight {1}, asking {2}: held {3}")
    @CsvSource({
        "0, 0, 10,    true", // exactly the budget fits
        "0, 0, 10.01, false",
        "6, 0, 4,     true",
        "6, 0, 4.01,  false",
        "0, 6, 4,     true", // calls in flight count as if they were billed
        "0, 6, 4.01,  false",
        "3, 3, 4.01,  false"
    })
    void aHoldIsRefusedWhenSpentPlusHeldPlusItsCostWouldPassTheBudget(
            String spent, String inFlight, String asking, boolean held) {
        audit.spent(P, usd(spent));
        if (usd(inFlight).signum() > 0) {
            assertThat(hold(P, inFlight)).isInstanceOf(Hold.Held.class);
        }

        Hold hold = hold(P, asking);

        assertThat(hold instanceof Hold.Held).isEqualTo(held);
        if (!held) {
            assertThat(hold).isEqualTo(new Hold.Refused(BudgetScope.PROVIDER, usd("10")));
        }
    }

    @Test
    void callsThatBillNothingReleaseTheirHoldAtOnceAndNeverWarn() {
        List<UUID> inFlight = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            UUID id = UUID.randomUUID();
            assertThat(hold(id, P, "4")).isInstanceOf(Hold.Held.class);
            inFlight.add(id);
        }
        assertThat(hold(P, "4")).isInstanceOf(Hold.Refused.class); // 8 held, 12 > 10

        inFlight.forEach(id -> budgets.settle(id, Billable.NO, usd("4"))); // three 503s

        assertThat(audit.announced()).isEmpty();
        assertThat(budgets.status(P).heldUsd()).isEqualByComparingTo("0");
        assertThat(hold(P, "10")).isInstanceOf(Hold.Held.class);
    }

    @Test
    void aBilledCallCountsItsActualCostAndAnUnknownOneItsExpectedCost() {
        UUID billed = UUID.randomUUID();
        UUID unknown = UUID.randomUUID();
        hold(billed, P, "4");
        hold(unknown, P, "3");

        budgets.settle(billed, Billable.YES, usd("1.5"));
        budgets.settle(unknown, Billable.UNKNOWN, usd("3"));

        clock.advance(Duration.ofSeconds(3));
        assertThat(budgets.status(P).spentUsd()).isEqualByComparingTo("4.5");
        assertThat(budgets.status(P).heldUsd()).isEqualByComparingTo("0");
        assertThat(hold(P, "5.5")).isInstanceOf(Hold.Held.class);
        assertThat(hold(P, "0.01")).isInstanceOf(Hold.Refused.class);
    }

    @Test
    void settlingAnUnknownCallAgainOnceItIsDecidedMovesTheSpend() {
        UUID id = UUID.randomUUID();
        hold(id, P, "5");
        budgets.settle(id, Billable.UNKNOWN, usd("5"));
        assertThat(announced("budget.warning")).isEqualTo(1);

        budgets.settle(id, Billable.NO, BigDecimal.ZERO); // reconciled: never billed

        clock.advance(Duration.ofSeconds(3));
        assertThat(budgets.status(P).spentUsd()).isEqualByComparingTo("0");
        assertThat(hold(P, "10")).isInstanceOf(Hold.Held.class);
    }

    @Test
    void concurrentHoldsNeverPassTheBudget() throws InterruptedException {
        int threads = 20;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger held = new AtomicInteger();
        List<Thread> running = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            running.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (hold(P, "1") instanceof Hold.Held) {
                    held.incrementAndGet();
                }
            }));
        }
        start.countDown();
        for (Thread t : running) {
            t.join();
        }
        assertThat(held.get()).isEqualTo(10);
    }

    @Test
    void anOrphanedHoldIsSettledAsUnknownByTheSweeperOnceItsTimeHasPassed() {
        hold(P, "4");
        assertThat(audit.sweepHolds(clock.instant().plus(HOLD_FOR), 10)).isZero();

        assertThat(audit.sweepHolds(clock.instant().plus(HOLD_FOR).plusMillis(1), 10))
                .isEqualTo(1);

        clock.advance(Duration.ofSeconds(3));
        assertThat(budgets.status(P).spentUsd()).isEqualByComparingTo("4");
        assertThat(budgets.status(P).heldUsd()).isEqualByComparingTo("0");
    }

    @Test
    void aKeyBudgetHoldsAcrossProvidersAndIsRefusedAsTheKeys() {
        UUID key = UUID.randomUUID();
        audit.keyBudgets(key, usd("1"), null);
        Hold first =
                budgets.tryHold(UUID.randomUUID(), "backup", Optional.empty(), Optional.of(key), usd("0.6"), HOLD_FOR);
        Hold second = budgets.tryHold(UUID.randomUUID(), P, Optional.empty(), Optional.of(key), usd("0.6"), HOLD_FOR);

        assertThat(first).isInstanceOf(Hold.Held.class);
        assertThat(second).isEqualTo(new Hold.Refused(BudgetScope.KEY_DAILY, usd("1")));
        assertThat(hold(P, "10")).isInstanceOf(Hold.Held.class); // nothing was held on the provider
    }

    @Test
    void aProviderWithoutABudgetIsNeverSkippedNorHeld() {
        audit.spent("backup", usd("1000000"));
        assertThat(hold("backup", "5")).isInstanceOf(Hold.Uncapped.class);
        assertThat(budgets.blocked("backup")).isEmpty();
        assertThat(budgets.status("backup").budgetUsd()).isEmpty();
        assertThat(audit.announced()).isEmpty();
    }

    @ParameterizedTest(name = "{0} ms after the last read: skipped early {1}")
    @CsvSource({"0, false", "1999, false", "2000, false", "2001, true"})
    void spendFromOtherNodesIsSeenOnceTheRefreshWindowHasPassed(long elapsedMs, boolean skipped) {
        assertThat(budgets.blocked(P)).isEmpty();
        audit.spent(P, usd("10")); // another node spent the rest
        clock.advance(Duration.ofMillis(elapsedMs));
        assertThat(budgets.blocked(P).isPresent()).isEqualTo(skipped);
    }

    @Test
    void theEarlySkipReadsTheStoreOncePerWindow() {
        for (int i = 0; i < 5; i++) {
            budgets.blocked(P);
        }
        assertThat(audit.reads()).isEqualTo(1);
    }

    @Test
    void aWallClockStepBackDoesNotStopTheRefresh() {
        budgets.blocked(P);
        audit.spent(P, usd("10"));
        clock.set(clock.instant().minus(Duration.ofHours(1))); // NTP steps back; the ticks do not
        clock.advance(Duration.ofMillis(2001));
        assertThat(budgets.blocked(P)).contains("budget_exhausted");
    }

    @Test
    void theTurnOfTheUtcDayLiftsTheSkipAndAnnouncesAfresh() {
        clock.set(Instant.parse("2026-12-01T23:59:59Z"));
        audit.spent(P, usd("9"));
        billed(P, "1");
        assertThat(budgets.blocked(P)).isPresent();

        audit.spent(P, usd("0")); // the audit since the new day's midnight
        clock.advance(Duration.ofSeconds(1));
        assertThat(budgets.blocked(P)).isEmpty();
        billed(P, "5");
        assertThat(audit.announced())
                .extracting(Announcement::type, a -> a.day().toString())
                .containsExactly(
                        tuple("budget.warning", "2026-12-01"),
                        tuple("budget.exhausted", "2026-12-01"),
                        tuple("budget.warning", "2026-12-02"));
    }
}
