package io.idem.testkit;

import io.idem.core.budget.BudgetScope;
import io.idem.core.budget.Hold;
import io.idem.core.budget.HoldRequest;
import io.idem.core.budget.SpendStore;
import io.idem.core.domain.Billable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * {@link SpendStore} in memory, keeping {@code PgSpendStore}'s rules: a hold takes room on every
 * budget it falls under or on none, settling replaces it with what the call cost, and thresholds
 * are announced on settled spend once per budget, period and type. A test can set what the audit
 * already says a provider spent today ({@link #spent}), give keys budgets and jobs their keys, and
 * read the announcements. The sweeper settles every expired open hold as unknown (it sees no
 * attempts). Thread-safe.
 */
public final class InMemorySpendStore implements SpendStore {
    /** One announced threshold; {@code provider} is the budget's scope (a provider's name, or {@code key:<id>:day}). */
    public record Announcement(String provider, String type, LocalDate day, BigDecimal spent) {}

    private record Cap(String scope, BudgetScope kind, LocalDate starts, BigDecimal cap) {}

    private static final class Ledger {
        BigDecimal spent = BigDecimal.ZERO;
        BigDecimal held = BigDecimal.ZERO;
    }

    private static final class Held {
        final List<Cap> caps;
        final BigDecimal expected;
        final Instant until;
        boolean open = true;
        Billable billable = Billable.UNKNOWN;
        BigDecimal cost;

        Held(List<Cap> caps, BigDecimal expected, Instant until) {
            this.caps = caps;
            this.expected = expected;
            this.until = until;
            this.cost = expected;
        }

        BigDecimal counted() {
            return open || billable == Billable.NO ? BigDecimal.ZERO : cost;
        }
    }

    private final Map<String, BigDecimal> audit = new HashMap<>();
    private final Map<UUID, BigDecimal[]> keyBudgets = new HashMap<>();
    private final Map<UUID, UUID> jobKeys = new HashMap<>();
    private final Map<String, Ledger> ledgers = new HashMap<>();
    private final Map<UUID, Held> holds = new LinkedHashMap<>();
    private final Set<String> once = new HashSet<>();
    private final List<Announcement> announced = new ArrayList<>();
    private int reads;

    /** What the audit says {@code provider} spent today before any hold (billed plus at risk). */
    public synchronized InMemorySpendStore spent(String provider, BigDecimal amount) {
        audit.put(provider, amount);
        return this;
    }

    /** Gives key {@code keyId} a daily and/or monthly budget (null: none). */
    public synchronized InMemorySpendStore keyBudgets(UUID keyId, BigDecimal daily, BigDecimal monthly) {
        keyBudgets.put(keyId, new BigDecimal[] {daily, monthly});
        return this;
    }

    /** Job {@code jobId} was created with key {@code keyId}. */
    public synchronized InMemorySpendStore jobKey(UUID jobId, UUID keyId) {
        jobKeys.put(jobId, keyId);
        return this;
    }

    @Override
    public synchronized Hold tryHold(HoldRequest request) {
        List<Cap> caps = caps(request);
        if (caps.isEmpty()) {
            return new Hold.Uncapped();
        }
        for (Cap cap : caps) {
            Ledger ledger = ledger(cap);
            if (ledger.spent.add(ledger.held).add(request.expectedUsd()).compareTo(cap.cap()) > 0) {
                return new Hold.Refused(cap.kind(), cap.cap());
            }
        }
        caps.forEach(cap -> ledger(cap).held = ledger(cap).held.add(request.expectedUsd()));
        holds.put(request.id(), new Held(caps, request.expectedUsd(), request.heldUntil()));
        return new Hold.Held();
    }

    private List<Cap> caps(HoldRequest request) {
        LocalDate day = request.at().atZone(ZoneOffset.UTC).toLocalDate();
        List<Cap> caps = new ArrayList<>();
        request.providerCapUsd()
                .ifPresent(cap -> caps.add(new Cap(request.provider(), BudgetScope.PROVIDER, day, cap)));
        Optional<UUID> key = request.apiKeyId().or(() -> request.jobId().map(jobKeys::get));
        key.map(keyBudgets::get).ifPresent(budgets -> {
            if (budgets[0] != null) {
                caps.add(new Cap("key:" + key.get() + ":day", BudgetScope.KEY_DAILY, day, budgets[0]));
            }
            if (budgets[1] != null) {
                caps.add(new Cap(
                        "key:" + key.get() + ":month", BudgetScope.KEY_MONTHLY, day.withDayOfMonth(1), budgets[1]));
            }
        });
        return caps;
    }

    private Ledger ledger(Cap cap) {
        return ledgers.computeIfAbsent(cap.scope() + "|" + cap.starts(), k -> {
            Ledger opened = new Ledger();
            if (cap.kind() == BudgetScope.PROVIDER) {
                opened.spent = audit.getOrDefault(cap.scope(), BigDecimal.ZERO);
            }
            return opened;
        });
    }

    @Override
    public synchronized void settle(UUID holdId, Billable billable, BigDecimal costUsd, Instant at) {
        Held hold = holds.get(holdId);
        if (hold == null) {
            return;
        }
        BigDecimal before = hold.counted();
        BigDecimal released = hold.open ? hold.expected : BigDecimal.ZERO;
        hold.open = false;
        hold.billable = billable;
        hold.cost = billable == Billable.NO ? BigDecimal.ZERO : costUsd;
        BigDecimal grew = hold.counted().subtract(before);
        for (Cap cap : hold.caps) {
            Ledger ledger = ledger(cap);
            ledger.held = ledger.held.subtract(released);
            ledger.spent = ledger.spent.add(grew);
            if (grew.signum() > 0) {
                announce(cap, ledger.spent, "budget.warning", cap.cap().multiply(new BigDecimal("0.5")));
                announce(cap, ledger.spent, "budget.exhausted", cap.cap());
            }
        }
    }

    private void announce(Cap cap, BigDecimal spent, String type, BigDecimal threshold) {
        if (spent.compareTo(threshold) >= 0 && once.add(cap.scope() + "|" + cap.starts() + "|" + type)) {
            announced.add(new Announcement(cap.scope(), type, cap.starts(), spent));
        }
    }

    @Override
    public synchronized Spend providerSpend(String provider, LocalDate day) {
        reads++;
        Ledger ledger = ledgers.get(provider + "|" + day);
        if (ledger == null) {
            return new Spend(audit.getOrDefault(provider, BigDecimal.ZERO), BigDecimal.ZERO);
        }
        return new Spend(ledger.spent, ledger.held);
    }

    @Override
    public synchronized int sweepHolds(Instant now, int limit) {
        List<UUID> due = holds.entrySet().stream()
                .filter(e -> e.getValue().open && e.getValue().until.isBefore(now))
                .limit(limit)
                .map(Map.Entry::getKey)
                .toList();
        due.forEach(id -> settle(id, Billable.UNKNOWN, holds.get(id).expected, now));
        return due.size();
    }

    public synchronized List<Announcement> announced() {
        return List.copyOf(announced);
    }

    /** How often a provider's spend was read: the budgets' early skip is meant to keep this low. */
    public synchronized int reads() {
        return reads;
    }
}
