package io.idem.core.moderation;

import java.util.List;
import java.util.Objects;

/**
 * What output moderation said about one result.
 *
 * @param moderator which moderator answered (its configured name, never a credential)
 * @param flagged whether the result must be withheld from the client
 * @param categories the categories the moderator flagged, in its own words ({@code sexual/minors})
 * @param unavailable true when no verdict could be had (the moderator failed or timed out): the
 *     result is then withheld too, since a required check that did not run must not pass
 */
public record ModerationVerdict(String moderator, boolean flagged, List<String> categories, boolean unavailable) {
    public ModerationVerdict {
        Objects.requireNonNull(moderator, "moderator");
        categories = List.copyOf(categories);
    }

    public static ModerationVerdict passed(String moderator) {
        return new ModerationVerdict(moderator, false, List.of(), false);
    }

    public static ModerationVerdict flagged(String moderator, List<String> categories) {
        return new ModerationVerdict(moderator, true, categories, false);
    }

    /** No verdict: {@code why} says what failed (no secret, no response body). */
    public static ModerationVerdict unavailable(String moderator, String why) {
        return new ModerationVerdict(moderator, false, List.of(why), true);
    }

    /** Whether the client may have the result. */
    public boolean delivers() {
        return !flagged && !unavailable;
    }

    /** The job's error code when the result is withheld. */
    public String withheldCode() {
        return unavailable ? "moderation_unavailable" : "output_flagged";
    }
}
