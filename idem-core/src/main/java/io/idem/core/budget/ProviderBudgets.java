package io.idem.core.budget;

import io.idem.core.domain.Billable;
import io.idem.core.time.Ticker;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-provider daily budgets and the key budgets behind them, as hard caps (DESIGN §6): every call
 * holds its expected cost through the {@link SpendStore} before it goes out and settles after it,
 * so concurrent calls on any number of nodes cannot spend past a cap. Threshold events come from
 * the store, on settled spend. {@link #blocked} is only a cheap early skip on settled spend, read
 * every {@link #REFRESH}; the hold is what decides. Thread-safe.
 */
public final class ProviderBudgets {
    static final Duration REFRESH = Duration.ofSeconds(2);

    private final SpendStore store;
    private final Map<String, BigDecimal> budgets;
    private final InstantSource clock;
    private final Ticker ticks;
    private final Map<String, Read> reads = new ConcurrentHashMap<>();

    private record Read(LocalDate day, SpendStore.Spend spend, long readAtNanos) {}

    /** Today's spend of one provider: settled (billed plus unknown), held by calls in flight, and its budget. */
    public record Status(BigDecimal spentUsd, BigDecimal heldUsd, Optional<BigDecimal> budgetUsd) {
        public boolean exhausted() {
            return budgetUsd.map(b -> spentUsd.compareTo(b) >= 0).orElse(false);
        }
    }

    public ProviderBudgets(SpendStore store, Map<String, BigDecimal> budgets, InstantSource clock) {
        this(store, budgets, clock, Ticker.system());
    }

    /** Budgets whose early-skip reads are spaced by {@code ticks} (a manual clock in tests). */
    public ProviderBudgets(SpendStore store, Map<String, BigDecimal> budgets, InstantSource clock, Ticker ticks) {
        this.store = store;
        this.budgets = Map.copyOf(budgets);
        this.clock = clock;
        this.ticks = ticks;
    }

    public Status status(String provider) {
        BigDecimal budget = budgets.get(provider);
        if (budget == null) {
            return new Status(BigDecimal.ZERO, BigDecimal.ZERO, Optional.empty());
        }
        SpendStore.Spend spend = current(provider);
        return new Status(spend.settledUsd(), spend.heldUsd(), Optional.of(budget));
    }

    /** Whether {@code provider} has a daily budget of its own. */
    public boolean capped(String provider) {
        return budgets.containsKey(provider);
    }

    /** Why a call must not even ask for a hold ({@code budget_exhausted}: settled spend is at the cap), or empty. */
    public Optional<String> blocked(String provider) {
        return status(provider).exhausted() ? Optional.of("budget_exhausted") : Optional.empty();
    }

    /**
     * Holds {@code expected} for a call to {@code provider} on its daily budget and on the key's
     * budgets (the key of job {@code jobId}, or {@code apiKeyId}); {@code holdFor} is how long the
     * call may take before the sweeper settles an orphaned hold.
     */
    public Hold tryHold(
            UUID id,
            String provider,
            Optional<UUID> jobId,
            Optional<UUID> apiKeyId,
            BigDecimal expected,
            Duration holdFor) {
        Optional<BigDecimal> cap = Optional.ofNullable(budgets.get(provider));
        if (cap.isEmpty() && jobId.isEmpty() && apiKeyId.isEmpty()) {
            return new Hold.Uncapped();
        }
        var now = clock.instant();
        return store.tryHold(new HoldRequest(id, provider, cap, jobId, apiKeyId, expected, now, now.plus(holdFor)));
    }

    /** Settles a hold to what its call cost (billed: actual; unknown: expected; not billed: nothing). */
    public void settle(UUID id, Billable billable, BigDecimal cost) {
        store.settle(id, billable, billable == Billable.NO ? BigDecimal.ZERO : cost, clock.instant());
    }

    /** Releases a hold whose call never went out. */
    public void release(UUID id) {
        settle(id, Billable.NO, BigDecimal.ZERO);
    }

    private SpendStore.Spend current(String provider) {
        return reads.compute(provider, (p, old) -> {
                    LocalDate today = today();
                    boolean stale = old == null
                            || !old.day().equals(today)
                            || ticks.read() - old.readAtNanos() > REFRESH.toNanos();
                    return stale ? new Read(today, store.providerSpend(p, today), ticks.read()) : old;
                })
                .spend();
    }

    private LocalDate today() {
        return clock.instant().atZone(ZoneOffset.UTC).toLocalDate();
    }
}
