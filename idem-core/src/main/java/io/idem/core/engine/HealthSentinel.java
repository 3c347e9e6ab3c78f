package io.idem.core.engine;

import io.idem.core.breaker.CircuitBreakers;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderSignals;
import io.idem.core.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks every provider in parallel on a schedule, each with its own timeout (DESIGN §6). A failed
 * or silent check counts against the provider's breaker (apart from real calls' failures), and once
 * an open breaker's cooldown is over the check is its probe ({@link CircuitBreakers#onHealthCheck});
 * a check that throws never stops the sentinel. The last answer per provider is kept for the API and console. Thread-safe.
 */
public final class HealthSentinel implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HealthSentinel.class);

    private final ProviderRegistry providers;
    private final CircuitBreakers breakers;
    private final InstantSource clock;
    private final Ticker ticks;
    private final Duration every;
    private final Duration timeout;
    private final ProviderSignals signals;
    private final String node;
    private final Map<String, Result> last = new ConcurrentHashMap<>();
    private final ExecutorService checks = Executors.newVirtualThreadPerTaskExecutor();
    private volatile Periodic loop;

    /**
     * One provider's latest check.
     *
     * @param since when this node's checks last turned to this answer (healthy from the first
     *     check: empty)
     */
    public record Result(HealthAnswer answer, Duration latency, Instant at, Optional<Instant> since) {}

    public HealthSentinel(
            ProviderRegistry providers,
            CircuitBreakers breakers,
            InstantSource clock,
            Duration every,
            Duration timeout) {
        this(providers, breakers, clock, Ticker.system(), every, timeout);
    }

    /** A sentinel whose check latencies and timeouts are measured by {@code ticks}. */
    public HealthSentinel(
            ProviderRegistry providers,
            CircuitBreakers breakers,
            InstantSource clock,
            Ticker ticks,
            Duration every,
            Duration timeout) {
        this(providers, breakers, clock, ticks, every, timeout, ProviderSignals.NONE, "");
    }

    /** A sentinel that also reports each verdict to the shared provider log, as {@code node}. */
    public HealthSentinel(
            ProviderRegistry providers,
            CircuitBreakers breakers,
            InstantSource clock,
            Ticker ticks,
            Duration every,
            Duration timeout,
            ProviderSignals signals,
            String node) {
        this.providers = providers;
        this.breakers = breakers;
        this.clock = clock;
        this.ticks = ticks;
        this.every = every;
        this.timeout = timeout;
        this.signals = signals;
        this.node = node;
    }

    public Optional<Result> last(String provider) {
        return Optional.ofNullable(last.get(provider));
    }

    /** Checks every provider once, in parallel; returns when all have answered or timed out. */
    public void checkAll() {
        List<Map.Entry<String, Future<HealthAnswer>>> running = providers.all().entrySet().stream()
                .map(e -> Map.entry(
                        e.getKey(), checks.submit(() -> e.getValue().adapter().health())))
                .toList();
        long started = ticks.read();
        Map<String, Result> seen = new java.util.LinkedHashMap<>();
        for (var entry : running) {
            String name = entry.getKey();
            HealthAnswer answer;
            try {
                long left = timeout.minus(ticks.since(started)).toNanos();
                answer = entry.getValue().get(Math.max(left, 0), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                entry.getValue().cancel(true);
                answer = new HealthAnswer(false, "no answer within " + timeout.toSeconds() + " s");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                answer = new HealthAnswer(false, "check failed: " + e.getClass().getSimpleName());
            }
            Duration latency = ticks.since(started);
            Result result = result(last.get(name), answer, latency, clock.instant());
            last.put(name, result);
            seen.put(name, result);
            if (!answer.healthy()) {
                log.warn("health check of '{}' failed: {}", name, answer.detail());
            }
            breakers.onHealthCheck(name, answer);
        }
        seen.forEach(this::share);
    }

    /**
     * The shared log records a change of verdict once for every node; a failed write only costs the
     * event. After the round, so its writes never count in a check's latency.
     */
    private void share(String provider, Result result) {
        HealthAnswer answer = result.answer();
        try {
            if (signals.health(provider, answer.healthy(), answer.detail(), node, result.at())) {
                log.info("provider '{}' is now {}", provider, answer.healthy() ? "healthy" : "unhealthy");
            }
        } catch (RuntimeException e) {
            log.warn("could not record the health of '{}'", provider, e);
        }
    }

    private static Result result(Result previous, HealthAnswer answer, Duration latency, Instant at) {
        Optional<Instant> since;
        if (previous == null) {
            since = answer.healthy() ? Optional.empty() : Optional.of(at);
        } else {
            since = previous.answer().healthy() == answer.healthy() ? previous.since() : Optional.of(at);
        }
        return new Result(answer, latency, at, since);
    }

    public void start() {
        loop = Periodic.start("health sweep", Duration.ZERO, every, this::checkAll);
    }

    @Override
    public void close() {
        Periodic running = loop;
        if (running != null) {
            running.close();
        }
        checks.shutdownNow();
    }
}
