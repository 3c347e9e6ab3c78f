package io.idem.providers.fal;

import io.idem.core.outcome.Outcome;
import io.idem.core.spi.CancelAnswer;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.http.VendorCalls;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;

/**
 * Waits for a request fal accepted: polls its status until {@code COMPLETED} or the call's
 * deadline. At the deadline a request still queued is canceled (fal removes it, unbilled) and the
 * call is {@code Unavailable}; one that is running is left to finish and the call is {@code
 * Unconfirmed}, for reconcile to collect by id. Thread-safe.
 */
final class FalPolling {
    private final FalQueue queue;
    private final FalCompletion completion;
    private final InstantSource clock;
    private final PollSchedule schedule;

    FalPolling(FalQueue queue, FalCompletion completion, InstantSource clock, PollSchedule schedule) {
        this.queue = queue;
        this.completion = completion;
        this.clock = clock;
        this.schedule = schedule;
    }

    /** A request fal accepted, with the status URL it gave us (if any). */
    record Accepted(String endpointId, String requestId, Optional<String> statusUrl) {}

    Outcome await(Accepted accepted, Instant deadline) {
        Duration pause = schedule.first();
        String lastSeen = "no status read yet";
        for (Duration left = left(deadline); left.isPositive(); left = left(deadline)) {
            Duration timeout = PollSchedule.shorter(left, VendorCalls.LOOKUP_TIMEOUT);
            switch (queue.status(accepted.endpointId(), accepted.requestId(), accepted.statusUrl(), timeout)) {
                case FalQueue.StatusRead.Read read -> {
                    if (read.status().phase() == FalStatus.Phase.COMPLETED) {
                        return completion.finish(accepted.endpointId(), accepted.requestId(), read.status());
                    }
                    lastSeen = read.status().raw();
                }
                case FalQueue.StatusRead.NotFound notFound -> lastSeen = "unknown to fal";
                case FalQueue.StatusRead.Unreadable unreadable -> lastSeen = unreadable.detail();
            }
            Duration rest = left(deadline);
            if (rest.isPositive() && !PollSchedule.sleep(PollSchedule.shorter(pause, rest))) {
                return new Outcome.Unconfirmed(
                        "interrupted",
                        "interrupted while waiting for fal request " + accepted.requestId(),
                        0,
                        accepted.requestId());
            }
            pause = schedule.after(pause);
        }
        return atDeadline(accepted, lastSeen);
    }

    private Outcome atDeadline(Accepted accepted, String lastSeen) {
        String id = accepted.requestId();
        FalQueue.StatusRead now =
                queue.status(accepted.endpointId(), id, accepted.statusUrl(), VendorCalls.LOOKUP_TIMEOUT);
        if (now instanceof FalQueue.StatusRead.Read read) {
            switch (read.status().phase()) {
                case COMPLETED -> {
                    return completion.finish(accepted.endpointId(), id, read.status());
                }
                case IN_QUEUE -> {
                    if (queue.cancelFrom(accepted.endpointId(), id, now) instanceof CancelAnswer.Canceled) {
                        return new Outcome.Unavailable(
                                "not_started",
                                "fal did not start request " + id + " within the call timeout; removed from its queue",
                                0,
                                id);
                    }
                    return timedOut(id, "IN_QUEUE, and the cancel was not confirmed");
                }
                case IN_PROGRESS, OTHER -> {
                    return timedOut(id, read.status().raw());
                }
            }
        }
        return timedOut(id, lastSeen);
    }

    private static Outcome timedOut(String id, String state) {
        return new Outcome.Unconfirmed(
                "timeout", "fal request " + id + " not finished at the call timeout (" + state + ")", 0, id);
    }

    private Duration left(Instant deadline) {
        return Duration.between(clock.instant(), deadline);
    }
}
