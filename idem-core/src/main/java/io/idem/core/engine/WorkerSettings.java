package io.idem.core.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * How a worker runs.
 *
 * @param concurrency jobs in flight at once (each on its own virtual thread)
 * @param claimBatch most jobs claimed by one statement
 * @param lease how long a claim holds without a heartbeat
 * @param pollEvery the safety-net poll when no wake-up arrives
 * @param shutdownGrace how long a shutdown waits for in-flight calls
 */
public record WorkerSettings(
        String workerId, int concurrency, int claimBatch, Duration lease, Duration pollEvery, Duration shutdownGrace) {
    public WorkerSettings {
        Objects.requireNonNull(workerId, "workerId");
        if (concurrency < 1) {
            throw new IllegalArgumentException("worker concurrency must be at least 1, was " + concurrency);
        }
        if (claimBatch < 1) {
            throw new IllegalArgumentException("claim batch must be at least 1, was " + claimBatch);
        }
        if (lease.compareTo(Duration.ofSeconds(3)) < 0) {
            throw new IllegalArgumentException("lease must be at least 3s, was " + lease);
        }
        Objects.requireNonNull(pollEvery, "pollEvery");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
    }

    public Duration heartbeatEvery() {
        return lease.dividedBy(3);
    }
}
