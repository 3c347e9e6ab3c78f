package io.idem.testkit;

import io.idem.core.budget.SpendStore;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link SpendStore} in memory: a test sets what the audit says a provider spent, and reads which
 * thresholds were announced. Like {@code PgSpendStore}, each threshold is announced once per
 * provider, type and day. The spend it reports ignores {@code since}: a test sets the day's figure.
 * Thread-safe.
 */
public final class InMemorySpendStore implements SpendStore {
    /** One announced threshold. */
    public record Announcement(String provider, String type, LocalDate day, BigDecimal spent) {}

    private final Map<String, BigDecimal> spent = new HashMap<>();
    private final Set<String> once = new HashSet<>();
    private final List<Announcement> announced = new ArrayList<>();
    private int reads;

    /** What the audit says {@code provider} has spent today (billed plus at risk). */
    public synchronized InMemorySpendStore spent(String provider, BigDecimal amount) {
        spent.put(provider, amount);
        return this;
    }

    @Override
    public synchronized BigDecimal providerSpendSince(String provider, Instant since) {
        reads++;
        return spent.getOrDefault(provider, BigDecimal.ZERO);
    }

    @Override
    public synchronized boolean announceOnce(
            String provider, String type, LocalDate day, BigDecimal amount, BigDecimal budget, Instant now) {
        if (!once.add(provider + "|" + type + "|" + day)) {
            return false;
        }
        announced.add(new Announcement(provider, type, day, amount));
        return true;
    }

    public synchronized List<Announcement> announced() {
        return List.copyOf(announced);
    }

    /** How often the spend was read: the budgets' cache is meant to keep this low. */
    public synchronized int reads() {
        return reads;
    }
}
