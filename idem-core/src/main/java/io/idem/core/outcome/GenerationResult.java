package io.idem.core.outcome;

import java.util.List;
import java.util.Objects;

/** What a provider delivered: one or more images (or other media), bytes in hand. */
public record GenerationResult(List<Media> media) {
    public GenerationResult {
        Objects.requireNonNull(media, "media");
        if (media.isEmpty()) {
            throw new IllegalArgumentException("a generation result needs at least one media item");
        }
        media = List.copyOf(media);
    }

    /** One delivered item. */
    public record Media(byte[] bytes, String mimeType) {
        public Media {
            Objects.requireNonNull(bytes, "bytes");
            Objects.requireNonNull(mimeType, "mimeType");
        }
    }
}
