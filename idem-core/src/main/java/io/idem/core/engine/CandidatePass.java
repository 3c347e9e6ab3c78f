package io.idem.core.engine;

import io.idem.core.breaker.CircuitBreakers;
import io.idem.core.spi.Deferral;
import io.idem.core.spi.JobMove;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One pass of a job over its candidates, once none of them took it: what became of each, and what
 * the job does now. It waits (a deferral) when at least one candidate is only closed for a while and
 * the deadline leaves time; otherwise it fails {@code providers_exhausted}, naming each candidate's
 * reason. A candidate that was spent in this pass (called and answered "unavailable" with its breaker
 * still closed, disabled, refused by configuration) is not waited for. Not thread-safe: one job's
 * worker thread owns it.
 */
final class CandidatePass {
    /** A deferral lasts at least this long, so a provider closed for a moment is not a busy loop. */
    static final Duration FLOOR = Duration.ofSeconds(1);

    /** What the job does at the end of the pass. */
    sealed interface Verdict {
        record Defer(Deferral deferral) implements Verdict {}

        record Fail(JobMove.Fail failure) implements Verdict {}
    }

    /** Denials that last a while and then end by themselves. */
    private static final Set<String> SHUT_FOR_A_WHILE =
            Set.of("breaker_open", "breaker_half_open", CircuitBreakers.RATE_LIMITED);

    private final Reopenings reopenings;
    private final List<String> markers = new ArrayList<>();
    private final List<Deferral.Closed> closed = new ArrayList<>();
    private boolean waitsForACalledProvider;
    private boolean deadlineCut;

    CandidatePass(Reopenings reopenings) {
        this.reopenings = reopenings;
    }

    /** A candidate that is out for this job whatever the time (disabled, unknown). */
    void spent(String provider, String marker) {
        markers.add(provider + "=" + marker);
    }

    /**
     * A candidate the job moved past, skipped or called; {@code calledThisRound} says whether it has an
     * attempt in the job's current round. It is waited for if the gate says it is closed for a while.
     */
    void movedPast(String provider, String marker, boolean calledThisRound, Instant now) {
        markers.add(provider + "=" + marker);
        Optional<Deferral.Closed> closure = reopenings.closure(provider, now);
        if (closure.isEmpty() && !calledThisRound && SHUT_FOR_A_WHILE.contains(marker)) {
            // denied a moment ago, open again now (another node's probe closed it): try again soon
            closure = Optional.of(new Deferral.Closed(provider, marker, now));
        }
        closure.ifPresent(closed::add);
        waitsForACalledProvider |= closure.isPresent() && calledThisRound;
    }

    /** A candidate left uncalled because the deadline leaves no time; named by why it is closed, if it is. */
    void pastDeadline(String provider, Instant now) {
        deadlineCut = true;
        String why =
                reopenings.closure(provider, now).map(Deferral.Closed::reason).orElse("deadline_passed");
        markers.add(provider + "=" + why);
    }

    Verdict end(Instant now, Instant deadline) {
        // the deadline is the reason only if something was left uncalled, or waited for, because of it
        boolean late = deadlineCut || (!closed.isEmpty() && !now.isBefore(deadline));
        if (closed.isEmpty() || late) {
            String cut = late ? " (the job's deadline, " + deadline + ", leaves no time for a call)" : "";
            return new Verdict.Fail(new JobMove.Fail(
                    "providers_exhausted",
                    "no candidate could serve this job: " + String.join(", ", markers) + cut,
                    "unavailable"));
        }
        Instant earliest = closed.stream()
                .map(Deferral.Closed::until)
                .min(Comparator.naturalOrder())
                .orElseThrow();
        Instant floor = now.plus(FLOOR);
        Instant wanted = earliest.isBefore(floor) ? floor : earliest;
        Instant notBefore = wanted.isAfter(deadline) ? deadline : wanted;
        return new Verdict.Defer(new Deferral(notBefore, waitsForACalledProvider, closed));
    }
}
