package io.idem.providers.http;

import io.idem.core.outcome.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Polls a submitted vendor job with backoff until a read says it ended or the call's deadline
 * passes. A job still running at the deadline (or when the thread is interrupted) is {@code
 * Unconfirmed} under its vendor id, for reconcile to collect. Polls are lookups: they cannot bill.
 * Thread-safe.
 */
public final class JobPoller {
    private final InstantSource clock;
    private final PollSchedule schedule;

    public JobPoller(InstantSource clock, PollSchedule schedule) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.schedule = Objects.requireNonNull(schedule, "schedule");
    }

    /** What one read of the job found. */
    public sealed interface Read {
        /** The job ended; this is the call's outcome. */
        record Ended(Outcome outcome) implements Read {}

        /** Still running (or unreadable this time); {@code lastSeen} says what was seen, for messages. */
        record Pending(String lastSeen) implements Read {}
    }

    /**
     * Reads job {@code id} through {@code read} (given the time left for one read) until it ends or
     * {@code deadline} passes; {@code how} tells reconcile how it will find the job again.
     */
    public Outcome await(String id, Instant deadline, String how, Function<Duration, Read> read) {
        Duration pause = schedule.first();
        String lastSeen = "no status read yet";
        while (true) {
            Duration left = Duration.between(clock.instant(), deadline);
            if (!left.isPositive()) {
                return new Outcome.Unconfirmed(
                        "poll_timeout",
                        "job " + id + " did not finish within the call timeout (last seen: " + lastSeen + "); " + how,
                        200,
                        id);
            }
            switch (read.apply(PollSchedule.shorter(left, VendorCalls.LOOKUP_TIMEOUT))) {
                case Read.Ended ended -> {
                    return ended.outcome();
                }
                case Read.Pending pending -> lastSeen = pending.lastSeen();
            }
            if (!PollSchedule.sleep(PollSchedule.shorter(pause, left))) {
                return new Outcome.Unconfirmed(
                        "interrupted", "stopped while waiting for job " + id + "; " + how, 200, id);
            }
            pause = schedule.after(pause);
        }
    }

    /**
     * A submit's answer: {@code accepted} with the job a 200 carries ({@code parse}), else the
     * vendor's refusal of it ({@code refused}, given the status and body) with any {@code
     * Retry-After}.
     */
    public static <T> Outcome onSubmitted(
            java.net.http.HttpResponse<byte[]> response,
            Function<byte[], Optional<T>> parse,
            java.util.function.BiFunction<Integer, byte[], Outcome> refused,
            Function<T, Outcome> accepted) {
        Optional<T> job = parse.apply(response.body());
        if (response.statusCode() != 200 || job.isEmpty()) {
            return RetryAfter.onto(refused.apply(response.statusCode(), response.body()), response);
        }
        return accepted.apply(job.get());
    }

    /** A read that found nothing usable: the HTTP status or the failure, for {@code lastSeen}. */
    public static Read.Pending unread(VendorExchange exchange) {
        return new Read.Pending(
                switch (exchange) {
                    case VendorExchange.Answered answered ->
                        "HTTP " + answered.response().statusCode();
                    case VendorExchange.Failed failed -> "lookup failed: " + failed.detail();
                });
    }

    /** {@code value} as an ended read, or pending with {@code lastSeen}. */
    public static Read of(Optional<Outcome> value, String lastSeen) {
        return value.<Read>map(Read.Ended::new).orElseGet(() -> new Read.Pending(lastSeen));
    }
}
