package io.idem.core.moderation;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which lanes' results are moderated, and by whom. Adult lanes are always in the set when a
 * moderator is configured (and closed when none is). Immutable.
 */
public record ModerationPolicy(Optional<OutputModerator> moderator, Set<String> lanes) {
    public static final ModerationPolicy NONE = new ModerationPolicy(Optional.empty(), Set.of());

    public ModerationPolicy {
        Objects.requireNonNull(moderator, "moderator");
        lanes = Set.copyOf(lanes);
        if (moderator.isEmpty() && !lanes.isEmpty()) {
            throw new IllegalArgumentException("moderated lanes " + lanes + " need a moderator");
        }
    }

    /** The moderator that must check a result of {@code lane}, if one must. */
    public Optional<OutputModerator> forLane(String lane) {
        return lanes.contains(lane) ? moderator : Optional.empty();
    }
}
