package io.idem.core.budget;

import io.idem.core.time.Ticker;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-provider daily budgets (DESIGN §6): spend counts billed and at-risk (unknown) cost from the
 * audit; an event at 50 %, and the provider is skipped at 100 % until the UTC day turns. Spend is
 * re-read from the database every {@link #REFRESH} and counted locally in between, so the hot path
 * rarely touches the database. Thread-safe.
 */
public final class ProviderBudgets {
    private static final Logger log = LoggerFactory.getLogger(ProviderBudgets.class);
    static final Duration REFRESH = Duration.ofSeconds(2);
    private static final BigDecimal HALF = new BigDecimal("0.5");

    private final SpendStore store;
    private final Map<String, BigDecimal> budgets;
    private final InstantSource clock;
    private final Ticker ticks;
    private final Map<String, Spent> spent = new ConcurrentHashMap<>();

    private record Spent(LocalDate day, BigDecimal amount, long readAtNanos) {}

    /** Today's spend and budget of one provider. */
    public record Status(BigDecimal spentUsd, Optional<BigDecimal> budgetUsd) {
        public boolean exhausted() {
            return budgetUsd.map(b -> spentUsd.compareTo(b) >= 0).orElse(false);
        }
    }

    public ProviderBudgets(SpendStore store, Map<String, BigDecimal> budgets, InstantSource clock) {
        this(store, budgets, clock, Ticker.system());
    }

    /** Budgets whose refresh window is measured by {@code ticks} (a manual clock in tests). */
    public ProviderBudgets(SpendStore store, Map<String, BigDecimal> budgets, InstantSource clock, Ticker ticks) {
        this.store = store;
        this.budgets = Map.copyOf(budgets);
        this.clock = clock;
        this.ticks = ticks;
    }

    public Status status(String provider) {
        BigDecimal budget = budgets.get(provider);
        if (budget == null) {
            return new Status(BigDecimal.ZERO, Optional.empty());
        }
        return new Status(current(provider).amount(), Optional.of(budget));
    }

    /** Why a call must not go out ({@code budget_exhausted}), or empty. */
    public Optional<String> blocked(String provider) {
        return status(provider).exhausted() ? Optional.of("budget_exhausted") : Optional.empty();
    }

    /** Counts a call's cost at once (at risk until settled); announces thresholds it crosses. */
    public void charge(String provider, BigDecimal cost) {
        BigDecimal budget = budgets.get(provider);
        if (budget == null || cost.signum() <= 0) {
            return;
        }
        Spent now = spent.compute(provider, (p, old) -> {
            Spent base = old == null || !old.day().equals(today()) ? read(p) : old;
            return new Spent(base.day(), base.amount().add(cost), base.readAtNanos());
        });
        announceCrossings(provider, now, budget);
    }

    private void announceCrossings(String provider, Spent now, BigDecimal budget) {
        Instant at = clock.instant();
        if (now.amount().compareTo(budget.multiply(HALF)) >= 0
                && store.announceOnce(provider, "budget.warning", now.day(), now.amount(), budget, at)) {
            log.warn("provider '{}' has spent {} of its {} USD daily budget", provider, now.amount(), budget);
        }
        if (now.amount().compareTo(budget) >= 0
                && store.announceOnce(provider, "budget.exhausted", now.day(), now.amount(), budget, at)) {
            log.warn("provider '{}' reached its {} USD daily budget; skipped until the day turns", provider, budget);
        }
    }

    private Spent current(String provider) {
        return spent.compute(provider, (p, old) -> {
            boolean stale =
                    old == null || !old.day().equals(today()) || ticks.read() - old.readAtNanos() > REFRESH.toNanos();
            return stale ? read(p) : old;
        });
    }

    private Spent read(String provider) {
        LocalDate day = today();
        BigDecimal amount = store.providerSpendSince(
                provider, day.atStartOfDay(ZoneOffset.UTC).toInstant());
        return new Spent(day, amount, ticks.read());
    }

    private LocalDate today() {
        return clock.instant().atZone(ZoneOffset.UTC).toLocalDate();
    }
}
