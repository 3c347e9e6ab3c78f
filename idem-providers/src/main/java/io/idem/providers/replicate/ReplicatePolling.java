package io.idem.providers.replicate;

import io.idem.core.outcome.Outcome;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.http.VendorCalls;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Follows a created prediction until it ends or the call's deadline passes, each lookup after a
 * growing pause, and never sooner than a throttled lookup's {@code Retry-After} asked. A
 * prediction still going at the deadline is {@code Unconfirmed}: its {@code Cancel-After} (the
 * same deadline for an image, the job's for a video) ends it as {@code aborted} (free) or {@code
 * canceled} (billed), and reconcile reads which (or collects the clip) by id. It is
 * not canceled from here: a cancel before it started could not be told from one after.
 * Thread-safe.
 */
final class ReplicatePolling {
    private final ReplicateApi api;
    private final PredictionVerdicts verdicts;
    private final InstantSource clock;
    private final PollSchedule schedule;

    ReplicatePolling(ReplicateApi api, PredictionVerdicts verdicts, InstantSource clock, PollSchedule schedule) {
        this.api = api;
        this.verdicts = verdicts;
        this.clock = clock;
        this.schedule = schedule;
    }

    Outcome await(Prediction created, Instant deadline) {
        Prediction last = created;
        String problem = null;
        Duration pause = schedule.first();
        while (!last.status().terminal()) {
            Duration left = Duration.between(clock.instant(), deadline);
            if (!left.isPositive()) {
                return timedOut(last, problem);
            }
            if (!PollSchedule.sleep(PollSchedule.shorter(pause, left))) {
                return new Outcome.Unconfirmed(
                        "interrupted", "interrupted while waiting for prediction " + last.id(), 0, last.id());
            }
            pause = schedule.after(pause);
            // A lookup may end a little past the deadline: it cannot bill, and it reads the final state.
            switch (api.prediction(last.id(), last.getUrl(), VendorCalls.LOOKUP_TIMEOUT)) {
                case ReplicateApi.Read.Found found -> {
                    last = found.prediction();
                    problem = null;
                }
                case ReplicateApi.Read.NotFound notFound -> problem = "Replicate does not know it";
                case ReplicateApi.Read.Unreadable unreadable -> {
                    problem = unreadable.detail();
                    // throttled: the next lookup waits at least as long as Replicate asked
                    Duration asked = unreadable.retryAfter().orElse(Duration.ZERO);
                    if (asked.compareTo(pause) > 0) {
                        pause = asked;
                    }
                }
            }
        }
        return verdicts.outcome(last);
    }

    private static Outcome timedOut(Prediction last, String problem) {
        String state = problem != null ? "last lookup: " + problem : "still " + last.rawStatus();
        return new Outcome.Unconfirmed(
                "timeout",
                "prediction " + last.id() + " not finished at the call timeout (" + state
                        + "); its Cancel-After deadline ends it",
                0,
                last.id());
    }
}
