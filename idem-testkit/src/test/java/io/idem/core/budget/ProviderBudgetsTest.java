package io.idem.core.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.idem.testkit.InMemorySpendStore;
import io.idem.testkit.InMemorySpendStore.Announcement;
import io.idem.testkit.ManualClock;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Daily provider budgets (DESIGN §6): a warning at 50 %, skipped at 100 %, until the UTC day turns. */
class ProviderBudgetsTest {
    private static final String P = "primary";
    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T12:00:00Z"));
    private final InMemorySpendStore audit = new InMemorySpendStore();
    private final ProviderBudgets budgets = new ProviderBudgets(audit, Map.of(P, usd("10")), clock, clock);

    private static BigDecimal usd(String amount) {
        return new BigDecimal(amount);
    }

    private long announced(String type) {
        return audit.announced().stream().filter(a -> a.type().equals(type)).count();
    }

    @ParameterizedTest(name = "spent {0}, charged {1}: warning {2}, exhausted {3}, skipped {4}")
    @CsvSource({
        "0,  4.99, 0, 0, false",
        "0,  5,    1, 0, false", // half the budget: a warning
        "4,  1,    1, 0, false",
        "9,  0.99, 1, 0, false",
        "9,  1,    1, 1, true", // the whole budget: skipped, both thresholds announced at once
        "12, 1,    1, 1, true",
        "10, 0,    0, 0, true" // nothing charged, nothing announced; the audit alone blocks it
    })
    void thresholdsAreAnnouncedAndTheProviderSkippedAtTheFullBudget(
            String spent, String charge, long warnings, long exhausted, boolean skipped) {
        audit.spent(P, usd(spent));
        budgets.charge(P, usd(charge));

        assertThat(announced("budget.warning")).isEqualTo(warnings);
        assertThat(announced("budget.exhausted")).isEqualTo(exhausted);
        assertThat(budgets.blocked(P)).isEqualTo(skipped ? Optional.of("budget_exhausted") : Optional.empty());
    }

    @Test
    void aProviderWithoutABudgetIsNeverSkipped() {
        audit.spent("backup", usd("1000000"));
        budgets.charge("backup", usd("5"));
        assertThat(budgets.blocked("backup")).isEmpty();
        assertThat(budgets.status("backup").budgetUsd()).isEmpty();
        assertThat(audit.announced()).isEmpty();
    }

    @ParameterizedTest(name = "{0} ms after the last read: skipped {1}")
    @CsvSource({"0, false", "1999, false", "2000, false", "2001, true"})
    void spendFromOtherNodesIsSeenOnceTheRefreshWindowHasPassed(long elapsedMs, boolean skipped) {
        assertThat(budgets.blocked(P)).isEmpty();
        audit.spent(P, usd("10")); // another node spent the rest
        clock.advance(Duration.ofMillis(elapsedMs));
        assertThat(budgets.blocked(P).isPresent()).isEqualTo(skipped);
    }

    @Test
    void chargesAreCountedLocallyBetweenReads() {
        for (int i = 0; i < 5; i++) {
            budgets.charge(P, usd("1"));
            budgets.blocked(P);
        }
        assertThat(audit.reads()).isEqualTo(1);
        assertThat(budgets.status(P).spentUsd()).isEqualByComparingTo("5");
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
        budgets.charge(P, usd("1"));
        assertThat(budgets.blocked(P)).isPresent();

        audit.spent(P, usd("0")); // the audit since the new day's midnight
        clock.advance(Duration.ofSeconds(1));
        assertThat(budgets.blocked(P)).isEmpty();
        budgets.charge(P, usd("5"));
        assertThat(audit.announced())
                .extracting(Announcement::type, a -> a.day().toString())
                .containsExactly(
                        tuple("budget.warning", "2026-12-01"),
                        tuple("budget.exhausted", "2026-12-01"),
                        tuple("budget.warning", "2026-12-02"));
    }
}
