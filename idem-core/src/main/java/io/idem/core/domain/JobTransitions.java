package io.idem.core.domain;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The one whitelist of legal job state transitions (DESIGN §4). Every store that moves a job asks
 * here first; anything not listed is a bug and throws.
 */
public final class JobTransitions {
    private static final Map<JobState, Set<JobState>> LEGAL = Map.of(
            JobState.QUEUED, EnumSet.of(JobState.RUNNING, JobState.CANCELED),
            JobState.RUNNING,
                    EnumSet.of(
                            JobState.SUCCEEDED,
                            JobState.FAILED,
                            JobState.MANUAL_REVIEW,
                            JobState.CANCELED,
                            // an expired lease without an open attempt goes back to the queue
                            JobState.QUEUED),
            JobState.MANUAL_REVIEW, EnumSet.of(JobState.SUCCEEDED, JobState.QUEUED, JobState.FAILED),
            JobState.SUCCEEDED, EnumSet.noneOf(JobState.class),
            JobState.FAILED, EnumSet.noneOf(JobState.class),
            JobState.CANCELED, EnumSet.noneOf(JobState.class));

    private JobTransitions() {}

    public static boolean isLegal(JobState from, JobState to) {
        return LEGAL.get(from).contains(to);
    }

    /** Throws {@link IllegalTransitionException} unless {@code from → to} is on the whitelist. */
    public static void check(JobState from, JobState to) {
        if (!isLegal(from, to)) {
            throw new IllegalTransitionException(from, to);
        }
    }

    /** The states a job may legally be in when it moves to {@code to}. */
    public static Set<JobState> sourcesOf(JobState to) {
        Set<JobState> sources = EnumSet.noneOf(JobState.class);
        LEGAL.forEach((from, targets) -> {
            if (targets.contains(to)) {
                sources.add(from);
            }
        });
        return sources;
    }

    /** A transition that the whitelist does not allow: always a bug in the caller. */
    public static final class IllegalTransitionException extends io.idem.core.IdemException {
        private final JobState from;
        private final JobState to;

        public IllegalTransitionException(JobState from, JobState to) {
            super("illegal job transition " + from.wire() + " -> " + to.wire());
            this.from = from;
            this.to = to;
        }

        public JobState from() {
            return from;
        }

        public JobState to() {
            return to;
        }
    }
}
