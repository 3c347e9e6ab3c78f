package io.idem.bench;

import io.idem.core.breaker.BreakerSettings;
import io.idem.core.breaker.BreakerState;
import io.idem.core.breaker.CircuitBreakers;
import io.idem.postgres.Database;
import io.idem.postgres.JobWakeups;
import io.idem.postgres.PgBreakerStore;
import io.idem.postgres.TestDatabases;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

/**
 * How long node B takes to learn that node A opened a breaker: two breaker caches on one database,
 * each with its own LISTEN connection, exactly as two Idem nodes run. A opens (one transaction:
 * the compare-and-set, the event row, the NOTIFY); we time until B's in-memory state says open.
 * Then the breaker is closed again (probe + close) and B's view is awaited before the next round.
 *
 * <p>Run: {@code idem-bench/run breakers [rounds]}.
 */
public final class BreakerPropagationBench {
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        try (Database db = TestDatabases.fresh(8)) {
            PgBreakerStore storeA = new PgBreakerStore(db);
            PgBreakerStore storeB = new PgBreakerStore(db);
            CircuitBreakers a = new CircuitBreakers(storeA, BreakerSettings.DEFAULTS, Clock.systemUTC(), "node-a");
            CircuitBreakers b = new CircuitBreakers(storeB, BreakerSettings.DEFAULTS, Clock.systemUTC(), "node-b");
            try (JobWakeups listenB = new JobWakeups(db, () -> {}, Map.of(PgBreakerStore.CHANNEL, p -> {
                if ("*".equals(p)) {
                    b.refreshAll();
                } else {
                    b.refresh(p);
                }
            }))) {
                Thread.sleep(500);
                long[] nanos = new long[rounds];
                for (int i = 0; i < rounds; i++) {
                    Instant now = Instant.now();
                    long start = System.nanoTime();
                    storeA.open("p", now.plusMillis(1), "bench", "node-a", now);
                    while (b.snapshot("p").state() != BreakerState.OPEN) {
                        Thread.onSpinWait();
                    }
                    nanos[i] = System.nanoTime() - start;
                    Thread.sleep(2);
                    Instant later = Instant.now();
                    storeA.takeProbe("p", later.plusSeconds(60), "node-a", later);
                    storeA.close("p", "node-a", later);
                    while (b.snapshot("p").state() != BreakerState.CLOSED) {
                        Thread.onSpinWait();
                    }
                    a.refresh("p");
                }
                Arrays.sort(nanos);
                System.out.printf(
                        "breaker propagation A -> B over %d rounds (open committed on A until B's cache says open)%n",
                        rounds);
                System.out.printf(
                        "  p50 %.2f ms   p90 %.2f ms   p99 %.2f ms   max %.2f ms%n",
                        ms(nanos, 0.50), ms(nanos, 0.90), ms(nanos, 0.99), nanos[rounds - 1] / 1e6);
                System.out.println("  target: p99 <= 50 ms (../shared/PERFORMANCE.md)");
            }
        }
        System.exit(0);
    }

    private static double ms(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * q) - 1)] / 1e6;
    }

    private BreakerPropagationBench() {}
}
