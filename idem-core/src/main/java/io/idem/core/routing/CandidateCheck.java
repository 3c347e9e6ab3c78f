package io.idem.core.routing;

import java.util.List;

/** One candidate provider and every reason it may not be used (none: eligible). */
public record CandidateCheck(String provider, List<String> reasons) {
    public CandidateCheck {
        reasons = List.copyOf(reasons);
    }

    public boolean eligible() {
        return reasons.isEmpty();
    }
}
