package io.idem.testkit;

import io.idem.core.breaker.BreakerSnapshot;
import io.idem.core.breaker.BreakerState;
import io.idem.core.breaker.BreakerStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * {@link BreakerStore} in memory with {@code PgBreakerStore}'s compare-and-set rules: open only
 * from closed; the probe taken from an open breaker whose cooldown is over, or from a half-open
 * one whose probe went silent; close and reopen only by the node holding the probe; every move
 * bumps the version; a rate limit only ever lengthens, in any state, and leaves the breaker where it is;
 * an unusable answer opens from any state and only ever lengthens an open breaker's cooldown.
 * Several {@code CircuitBreakers} (nodes) may share one instance. Thread-safe.
 */
public final class InMemoryBreakerStore implements BreakerStore {
    private record Row(BreakerSnapshot snapshot, String probeOwner) {}

    private final Map<String, Row> rows = new HashMap<>();

    @Override
    public synchronized Map<String, BreakerSnapshot> loadAll() {
        Map<String, BreakerSnapshot> all = new HashMap<>();
        rows.forEach((provider, row) -> all.put(provider, row.snapshot()));
        return all;
    }

    @Override
    public synchronized Optional<BreakerSnapshot> load(String provider) {
        return Optional.ofNullable(rows.get(provider)).map(Row::snapshot);
    }

    @Override
    public synchronized Optional<BreakerSnapshot> open(
            String provider, Instant until, String reason, String node, Instant now) {
        return move(provider, row -> row.snapshot().state() == BreakerState.CLOSED, BreakerState.OPEN, 0, until, null);
    }

    @Override
    public synchronized Optional<BreakerSnapshot> takeProbe(
            String provider, Instant probeUntil, String node, Instant now) {
        Predicate<Row> due = row -> switch (row.snapshot().state()) {
            case CLOSED -> false;
            case OPEN -> !row.snapshot().openUntil().orElseThrow().isAfter(now);
            case HALF_OPEN -> !row.snapshot().probeUntil().orElseThrow().isAfter(now);
        };
        int reopens = current(provider).snapshot().reopens();
        return move(provider, due, BreakerState.HALF_OPEN, reopens, probeUntil, node);
    }

    @Override
    public synchronized Optional<BreakerSnapshot> close(String provider, String node, Instant now) {
        return move(provider, probeHeldBy(node), BreakerState.CLOSED, 0, null, null);
    }

    @Override
    public synchronized Optional<BreakerSnapshot> reopen(
            String provider, Instant until, String reason, String node, Instant now) {
        int reopens = current(provider).snapshot().reopens() + 1;
        return move(provider, probeHeldBy(node), BreakerState.OPEN, reopens, until, null);
    }

    @Override
    public synchronized Optional<BreakerSnapshot> rateLimit(String provider, Instant until, String node, Instant now) {
        Row row = current(provider);
        BreakerSnapshot s = row.snapshot();
        if (s.rateLimitedUntil().filter(known -> !known.isBefore(until)).isPresent()) {
            return Optional.empty();
        }
        var limited = new BreakerSnapshot(
                provider, s.state(), s.reopens(), s.openUntil(), s.probeUntil(), s.version() + 1, Optional.of(until));
        rows.put(provider, new Row(limited, row.probeOwner()));
        return Optional.of(limited);
    }

    @Override
    public synchronized Optional<BreakerSnapshot> unusable(
            String provider, Instant until, String reason, String node, Instant now) {
        BreakerSnapshot s = current(provider).snapshot();
        boolean longEnough = s.state() == BreakerState.OPEN
                && s.openUntil().filter(known -> !known.isBefore(until)).isPresent();
        if (longEnough) {
            return Optional.empty();
        }
        if (s.state() != BreakerState.OPEN) {
            s.state().check(BreakerState.OPEN);
        }
        var closedOff = new BreakerSnapshot(
                provider,
                BreakerState.OPEN,
                s.reopens(),
                Optional.of(until),
                Optional.empty(),
                s.version() + 1,
                s.rateLimitedUntil());
        rows.put(provider, new Row(closedOff, null));
        return Optional.of(closedOff);
    }

    private static Predicate<Row> probeHeldBy(String node) {
        return row -> row.snapshot().state() == BreakerState.HALF_OPEN && node.equals(row.probeOwner());
    }

    private Row current(String provider) {
        return rows.getOrDefault(provider, new Row(BreakerSnapshot.closed(provider), null));
    }

    /** The compare-and-set: moves only when {@code allowed} holds for the stored row. */
    private Optional<BreakerSnapshot> move(
            String provider, Predicate<Row> allowed, BreakerState to, int reopens, Instant until, String probeOwner) {
        Row row = current(provider);
        if (!allowed.test(row)) {
            return Optional.empty();
        }
        BreakerState from = row.snapshot().state();
        if (from != to) { // a silent probe is re-taken half-open to half-open: not a state change
            from.check(to);
        }
        Optional<Instant> openUntil = switch (to) {
            case OPEN -> Optional.of(until);
            case HALF_OPEN -> row.snapshot().openUntil();
            case CLOSED -> Optional.empty();
        };
        Optional<Instant> probeUntil = to == BreakerState.HALF_OPEN ? Optional.of(until) : Optional.empty();
        var moved = new BreakerSnapshot(
                provider,
                to,
                reopens,
                openUntil,
                probeUntil,
                row.snapshot().version() + 1,
                row.snapshot().rateLimitedUntil());
        rows.put(provider, new Row(moved, probeOwner));
        return Optional.of(moved);
    }
}
