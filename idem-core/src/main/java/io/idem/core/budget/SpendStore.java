package io.idem.core.budget;

import io.idem.core.domain.Billable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/**
 * Where budgets are held and settled (DESIGN §6: budgets are hard caps). Each budget and period (a
 * provider's UTC day, an API key's UTC day and month) counts what its settled calls spent (billed
 * cost, or the expected cost while billing is unknown) and what calls in flight hold. Thread-safe,
 * and shared by every node on the store.
 *
 * <p>The rules every implementation keeps:
 *
 * <ul>
 *   <li>{@link #tryHold} is atomic: it holds the expected cost on every budget the call falls under
 *       only if each has room ({@code spent + held + expected <= cap}), else holds nothing. No
 *       number of concurrent holds can take a budget past its cap.
 *   <li>{@link #settle} replaces the hold with what the call cost: billed, its actual cost; unknown,
 *       the expected cost stays counted; not billed, nothing. It may be called again with newer
 *       knowledge (an unknown call reconciled); settling an unknown hold does nothing.
 *   <li>{@code budget.warning} (50 %) and {@code budget.exhausted} (100 %) are announced on settled
 *       spend only, never on holds, exactly once per budget, period and threshold.
 *   <li>{@link #sweepHolds} settles holds nobody settled by their {@code heldUntil}: a job hold from
 *       its attempt (released if the attempt was never written, kept while it is still open), a
 *       chat hold as unknown (the call may have gone out).
 * </ul>
 */
public interface SpendStore {
    /** Holds {@code request}'s expected cost on every budget it falls under, or refuses. */
    Hold tryHold(HoldRequest request);

    /** Settles hold {@code holdId} to what the call cost; see the class rules. */
    void settle(UUID holdId, Billable billable, BigDecimal costUsd, Instant at);

    /** A provider's spend on UTC day {@code day}: settled (billed plus unknown) and held. */
    Spend providerSpend(String provider, LocalDate day);

    /** Settles up to {@code limit} holds past their time; returns how many. */
    int sweepHolds(Instant now, int limit);

    /** A budget's spend in one period. */
    record Spend(BigDecimal settledUsd, BigDecimal heldUsd) {
        public static final Spend NONE = new Spend(BigDecimal.ZERO, BigDecimal.ZERO);
    }
}
