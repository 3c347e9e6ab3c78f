package io.idem.core.breaker;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A breaker store in memory for core tests: every move succeeds (one node, no races). */
public final class MemoryBreakerStore implements BreakerStore {
    private final Map<String, BreakerSnapshot> states = new ConcurrentHashMap<>();

    @Override
    public Map<String, BreakerSnapshot> loadAll() {
        return Map.copyOf(states);
    }

    @Override
    public Optional<BreakerSnapshot> load(String provider) {
        return Optional.ofNullable(states.get(provider));
    }

    @Override
    public Optional<BreakerSnapshot> open(String provider, Instant until, String reason, String node, Instant now) {
        BreakerSnapshot open =
                new BreakerSnapshot(provider, BreakerState.OPEN, 0, Optional.of(until), Optional.empty(), 1);
        states.put(provider, open);
        return Optional.of(open);
    }

    @Override
    public Optional<BreakerSnapshot> takeProbe(String provider, Instant probeUntil, String node, Instant now) {
        return Optional.empty();
    }

    @Override
    public Optional<BreakerSnapshot> close(String provider, String node, Instant now) {
        BreakerSnapshot closed = BreakerSnapshot.closed(provider);
        states.put(provider, closed);
        return Optional.of(closed);
    }

    @Override
    public Optional<BreakerSnapshot> reopen(String provider, Instant until, String reason, String node, Instant now) {
        return open(provider, until, reason, node, now);
    }

    @Override
    public Optional<BreakerSnapshot> unusable(String provider, Instant until, String reason, String node, Instant now) {
        return open(provider, until, reason, node, now);
    }

    @Override
    public Optional<BreakerSnapshot> rateLimit(String provider, Instant until, String node, Instant now) {
        BreakerSnapshot s = states.getOrDefault(provider, BreakerSnapshot.closed(provider));
        BreakerSnapshot limited = new BreakerSnapshot(
                provider, s.state(), s.reopens(), s.openUntil(), s.probeUntil(), s.version() + 1, Optional.of(until));
        states.put(provider, limited);
        return Optional.of(limited);
    }
}
