package io.idem.core.routing;

import java.util.List;

/** The outcome of planning a job's candidates: an ordered list, or a reason why there is none. */
public sealed interface CandidatePlan {
    record Planned(String lane, List<String> candidates, boolean pinned) implements CandidatePlan {
        public Planned {
            candidates = List.copyOf(candidates);
        }
    }

    /** The request cannot be routed; {@code code} is the API error code. */
    record Refused(String code, String message) implements CandidatePlan {}
}
