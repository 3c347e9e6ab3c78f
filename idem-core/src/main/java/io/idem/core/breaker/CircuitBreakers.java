package io.idem.core.breaker;

import io.idem.core.spi.HealthAnswer;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's view of every provider's circuit breaker (DESIGN §6). The shared state lives in a
 * {@link BreakerStore}; this class caches it for the hot path ({@link #tryAcquirePermission} reads
 * memory only unless a probe must be taken) and applies changes pushed from other nodes via {@link
 * #refresh}. Consecutive failures and the latency window are counted per node: any node that sees
 * the threshold opens the breaker for all. Real calls and health checks keep separate counts: a
 * passing health check never clears a real call's failure (a vendor whose health endpoint answers
 * while its chat endpoint fails still opens). Once a provider's health check has answered, that
 * check, not a user's call, decides when its cooldown ends ({@link #onHealthCheck}). Thread-safe.
 */
public final class CircuitBreakers {
    private static final Logger log = LoggerFactory.getLogger(CircuitBreakers.class);

    private final BreakerStore store;
    private final BreakerSettings settings;
    private final InstantSource clock;
    private final String node;
    private final Map<String, BreakerSnapshot> cache = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> healthFailures = new ConcurrentHashMap<>();
    /** Providers whose health check answered on this node: their cooldown ends by a check. */
    private final Set<String> healthChecked = ConcurrentHashMap.newKeySet();

    private final Map<String, Deque<long[]>> latencies = new ConcurrentHashMap<>();
    private final Map<String, long[]> lastP95Check = new ConcurrentHashMap<>();
    /** Why a provider is denied while the vendor's {@code Retry-After} lasts. */
    public static final String RATE_LIMITED = "rate_limited";

    /** The longest a vendor's {@code Retry-After} may close a provider; longer asks are cut to this. */
    public static final Duration MAX_RATE_LIMIT = Duration.ofHours(1);

    /** Enough samples for a stable p95; older ones fall out first. */
    private static final int WINDOW_CAP = 2048;

    private static final Duration P95_EVERY = Duration.ofSeconds(1);
    /** No p95 check yet (a subtraction from Long.MIN_VALUE would overflow and skip every check). */
    private static final long NEVER = Long.MIN_VALUE;

    public CircuitBreakers(BreakerStore store, BreakerSettings settings, InstantSource clock, String node) {
        this.store = store;
        this.settings = settings;
        this.clock = clock;
        this.node = node;
        cache.putAll(store.loadAll());
    }

    public BreakerSnapshot snapshot(String provider) {
        return cache.getOrDefault(provider, BreakerSnapshot.closed(provider));
    }

    /** Re-reads one provider's shared state (another node changed it). */
    public void refresh(String provider) {
        store.load(provider).ifPresent(this::remember);
    }

    public void refreshAll() {
        store.loadAll().values().forEach(this::remember);
    }

    /** Keeps the newer state; a breaker that just closed starts both failure counts again. */
    private void remember(BreakerSnapshot snapshot) {
        BreakerSnapshot before = snapshot(snapshot.provider());
        BreakerSnapshot now = cache.merge(
                snapshot.provider(), snapshot, (old, fresh) -> fresh.version() >= old.version() ? fresh : old);
        if (now.state() == BreakerState.CLOSED && before.state() != BreakerState.CLOSED) {
            counter(failures, snapshot.provider()).set(0);
            counter(healthFailures, snapshot.provider()).set(0);
        }
    }

    private static AtomicInteger counter(Map<String, AtomicInteger> counts, String provider) {
        return counts.computeIfAbsent(provider, p -> new AtomicInteger());
    }

    /**
     * May a call to {@code provider} go out now? Not while the vendor's rate limit lasts; otherwise
     * the breaker decides, and the single half-open probe is taken when it is due, unless the
     * provider has a health check: then the check probes and no user's call is risked.
     */
    public Admission tryAcquirePermission(String provider) {
        Instant now = clock.instant();
        BreakerSnapshot snapshot = snapshot(provider);
        if (snapshot.rateLimitedAt(now)) {
            return new Admission.Denied(RATE_LIMITED);
        }
        return switch (Admission.decide(snapshot, now)) {
            case ALLOW -> new Admission.Allowed(false);
            case DENY -> new Admission.Denied("breaker_" + snapshot.state().wire());
            case TRY_PROBE -> {
                if (healthChecked.contains(provider)) {
                    yield new Admission.Denied("breaker_" + snapshot.state().wire());
                }
                Optional<BreakerSnapshot> probe =
                        store.takeProbe(provider, now.plus(settings.probeTimeout()), node, now);
                if (probe.isPresent()) {
                    remember(probe.get());
                    yield new Admission.Allowed(true);
                }
                refresh(provider);
                yield new Admission.Denied("breaker_half_open");
            }
        };
    }

    /** The call succeeded (or failed in a way that says nothing about the provider's health). */
    public void onSuccess(String provider, Duration latency, boolean probe) {
        counter(failures, provider).set(0);
        if (probe) {
            store.close(provider, node, clock.instant()).ifPresent(this::remember);
            return;
        }
        recordLatency(provider, latency);
    }

    /** The call failed in a way that counts against the provider (unavailable, timeout, 5xx, 429). */
    public void onError(String provider, Duration latency, boolean probe, String reason) {
        Instant now = clock.instant();
        if (probe) {
            int reopens = snapshot(provider).reopens() + 1;
            store.reopen(provider, now.plus(settings.cooldownAfter(reopens)), "probe failed: " + reason, node, now)
                    .ifPresent(this::remember);
            return;
        }
        int consecutive = counter(failures, provider).incrementAndGet();
        recordLatency(provider, latency);
        if (consecutive >= settings.failureThreshold() && snapshot(provider).state() == BreakerState.CLOSED) {
            open(provider, consecutive + " consecutive failures, last: " + reason, now);
        }
    }

    /**
     * The vendor answered 429 with {@code Retry-After}: the provider is closed to every node for
     * that long (at most {@link #MAX_RATE_LIMIT}), and it is not a breaker failure: the vendor is up
     * and said when to come back. A probe that meets a rate limit proved as much, so it closes the
     * breaker; the rate limit keeps the provider shut until it passes.
     */
    public void onRateLimited(String provider, Duration wait, boolean probe) {
        Instant now = clock.instant();
        if (probe) {
            store.close(provider, node, now).ifPresent(this::remember);
        }
        Duration capped = wait.compareTo(MAX_RATE_LIMIT) > 0 ? MAX_RATE_LIMIT : wait;
        if (capped.isNegative() || capped.isZero()) {
            return;
        }
        if (capped != wait) {
            log.warn("provider '{}' asked to be left alone for {}; closing it for {} only", provider, wait, capped);
        }
        Instant until = now.plus(capped);
        if (snapshot(provider)
                .rateLimitedUntil()
                .filter(known -> !known.isBefore(until))
                .isPresent()) {
            return; // already known to last as long: no shared write for every 429 of a burst
        }
        store.rateLimit(provider, until, node, now).ifPresentOrElse(this::remember, () -> refresh(provider));
    }

    /**
     * One health check's answer. A provider without a health endpoint checked nothing and keeps
     * probing by a live call. Otherwise, once the cooldown is over, the check is the probe: it takes
     * the half-open state and closes or reopens the breaker. While the breaker is closed, failed
     * checks open it after {@link BreakerSettings#healthFailureThreshold} in a row; a passing check
     * clears only that count, never the failures of real calls.
     */
    public void onHealthCheck(String provider, HealthAnswer answer) {
        if (!answer.checked()) {
            healthChecked.remove(provider);
            return;
        }
        healthChecked.add(provider);
        Instant now = clock.instant();
        BreakerSnapshot snapshot = snapshot(provider);
        if (snapshot.state() != BreakerState.CLOSED) {
            if (Admission.decide(snapshot, now) == Admission.Decision.TRY_PROBE) {
                probeByHealthCheck(provider, answer, now);
            }
            return;
        }
        if (answer.healthy()) {
            counter(healthFailures, provider).set(0);
            return;
        }
        int consecutive = counter(healthFailures, provider).incrementAndGet();
        if (consecutive >= settings.healthFailureThreshold()) {
            open(provider, consecutive + " failed health checks, last: " + answer.detail(), now);
        }
    }

    private void probeByHealthCheck(String provider, HealthAnswer answer, Instant now) {
        Optional<BreakerSnapshot> probe = store.takeProbe(provider, now.plus(settings.probeTimeout()), node, now);
        if (probe.isEmpty()) {
            refresh(provider);
            return;
        }
        remember(probe.get());
        if (answer.healthy()) {
            store.close(provider, node, now).ifPresent(this::remember);
            log.info("circuit breaker for '{}' closed by a passing health check", provider);
        } else {
            int reopens = probe.get().reopens() + 1;
            store.reopen(
                            provider,
                            now.plus(settings.cooldownAfter(reopens)),
                            "health check failed: " + answer.detail(),
                            node,
                            now)
                    .ifPresent(this::remember);
        }
    }

    /**
     * The vendor answered that it cannot serve us at all (quota spent, credentials refused, model
     * unknown): the provider is closed to every node for {@link BreakerSettings#unusableFor}, with
     * {@code reason} recorded and a {@code provider.unusable} event. Neither a failure nor a success:
     * it clears no count and feeds no latency. A probe that meets it keeps the breaker open.
     */
    public void onUnusable(String provider, String reason) {
        Instant now = clock.instant();
        log.warn("provider '{}' cannot serve calls ({}); closing it for {}", provider, reason, settings.unusableFor());
        store.unusable(provider, now.plus(settings.unusableFor()), reason, node, now)
                .ifPresentOrElse(this::remember, () -> refresh(provider));
    }

    private void open(String provider, String reason, Instant now) {
        Optional<BreakerSnapshot> opened = store.open(provider, now.plus(settings.cooldownAfter(0)), reason, node, now);
        if (opened.isPresent()) {
            log.warn("circuit breaker for '{}' opened: {}", provider, reason);
            remember(opened.get());
        } else {
            refresh(provider);
        }
    }

    /**
     * Keeps the window's latencies (at most {@link #WINDOW_CAP} of them, the newest) and evaluates
     * the p95 trigger at most every {@link #P95_EVERY}: sorting the window on every call would cost
     * more than the call.
     */
    private void recordLatency(String provider, Duration latency) {
        long nowMs = clock.instant().toEpochMilli();
        Deque<long[]> window = latencies.computeIfAbsent(provider, p -> new ArrayDeque<>());
        long[] sample;
        synchronized (window) {
            window.addLast(new long[] {nowMs, latency.toMillis()});
            long horizon = nowMs - settings.latencyWindow().toMillis();
            while (!window.isEmpty() && (window.peekFirst()[0] < horizon || window.size() > WINDOW_CAP)) {
                window.removeFirst();
            }
            long[] last = lastP95Check.computeIfAbsent(provider, p -> new long[] {NEVER});
            boolean checkedRecently = last[0] != NEVER && nowMs - last[0] < P95_EVERY.toMillis();
            if (window.size() < settings.latencyMinSamples() || checkedRecently) {
                return;
            }
            last[0] = nowMs;
            sample = window.stream().mapToLong(entry -> entry[1]).sorted().toArray();
        }
        long p95 = sample[(int) Math.ceil(sample.length * 0.95) - 1];
        if (p95 > settings.latencyThreshold().toMillis() && snapshot(provider).state() == BreakerState.CLOSED) {
            open(
                    provider,
                    "p95 latency " + p95 + " ms over "
                            + settings.latencyWindow().toSeconds() + " s",
                    clock.instant());
            synchronized (window) {
                window.clear();
            }
        }
    }

    /** p95 latency in ms over the window on this node, if there are samples. */
    public Optional<Long> p95Millis(String provider) {
        Deque<long[]> window = latencies.get(provider);
        if (window == null) {
            return Optional.empty();
        }
        List<Long> sample = new ArrayList<>();
        synchronized (window) {
            window.forEach(entry -> sample.add(entry[1]));
        }
        if (sample.isEmpty()) {
            return Optional.empty();
        }
        Collections.sort(sample);
        return Optional.of(sample.get((int) Math.ceil(sample.size() * 0.95) - 1));
    }
}
