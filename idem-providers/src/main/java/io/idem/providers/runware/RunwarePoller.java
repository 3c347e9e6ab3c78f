package io.idem.providers.runware;

import io.idem.providers.http.Credential;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Polls one accepted task until it ends or the call's deadline passes, waiting a little longer
 * before each lookup (Runware asks for backoff). Thread-safe; each call polls on its own thread.
 */
final class RunwarePoller {
    private final RunwareLookup lookup;
    private final RunwareTuning tuning;
    private final InstantSource clock;

    RunwarePoller(RunwareLookup lookup, RunwareTuning tuning, InstantSource clock) {
        this.lookup = lookup;
        this.tuning = tuning;
        this.clock = clock;
    }

    /**
     * The task's terminal state ({@code Failed}, or {@code Succeeded} with all {@code expected}
     * images), else the last state seen when the deadline passed.
     *
     * @throws InterruptedException when our thread is stopped (shutdown); the task runs on
     */
    RunwareTaskState await(String task, Credential credential, Instant deadline, int expected)
            throws InterruptedException {
        Duration wait = tuning.firstPoll();
        RunwareTaskState last = new RunwareTaskState.Running("not polled yet");
        while (true) {
            Duration left = Duration.between(clock.instant(), deadline);
            if (!left.isPositive()) {
                return last;
            }
            Thread.sleep(min(wait, left));
            left = Duration.between(clock.instant(), deadline);
            if (!left.isPositive()) {
                return last;
            }
            RunwareTaskState seen = lookup.state(task, credential, min(tuning.lookupTimeout(), left));
            if (seen.isFinal(expected)) {
                return seen;
            }
            last = seen.awaiting(expected);
            wait = min(wait.plus(wait.dividedBy(2)), tuning.maxPoll());
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
