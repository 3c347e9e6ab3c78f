package io.idem.core.moderation;

import java.util.List;

/**
 * Checks a confirmed result before it is delivered (an adult lane's results, or any lane the
 * operator names). Implementations call a moderation service over HTTP; they never throw: a failure
 * is a verdict with {@code unavailable} set. Thread-safe.
 */
public interface OutputModerator {
    /** One piece of the result: its media type and bytes. */
    record Media(String mimeType, byte[] bytes) {}

    /** What is checked: the job's kind and prompt (text is moderated too), and the result's media. */
    record Input(String kind, String prompt, List<Media> media) {
        public Input {
            media = List.copyOf(media);
        }
    }

    ModerationVerdict check(Input input);
}
