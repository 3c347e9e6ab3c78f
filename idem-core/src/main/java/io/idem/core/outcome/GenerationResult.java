package io.idem.core.outcome;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** What a provider delivered: one or more images (or other media), bytes in hand or spooled to disk. */
public record GenerationResult(List<Media> media) {
    public GenerationResult {
        Objects.requireNonNull(media, "media");
        if (media.isEmpty()) {
            throw new IllegalArgumentException("a generation result needs at least one media item");
        }
        media = List.copyOf(media);
    }

    /**
     * One delivered item: small ones in memory ({@code bytes}), large ones (a video) spooled to a
     * file as they arrived ({@code file}), so no clip is ever held whole in memory. Exactly one of the
     * two is set; the asset store takes a spooled file over (moves it) when it keeps the result.
     */
    public record Media(byte[] bytes, String mimeType, Path file) {
        public Media {
            Objects.requireNonNull(mimeType, "mimeType");
            if ((bytes == null) == (file == null)) {
                throw new IllegalArgumentException("a media item is either bytes or a spooled file");
            }
        }

        public Media(byte[] bytes, String mimeType) {
            this(Objects.requireNonNull(bytes, "bytes"), mimeType, null);
        }

        /** An item spooled to {@code file} (the asset store moves it into place). */
        public static Media spooled(Path file, String mimeType) {
            return new Media(null, mimeType, Objects.requireNonNull(file, "file"));
        }

        public boolean isSpooled() {
            return file != null;
        }

        /** Its length in bytes. */
        public long size() {
            try {
                return file != null ? Files.size(file) : bytes.length;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the size of spooled media " + file.getFileName(), e);
            }
        }

        /** Its content as a stream (the caller closes it). */
        public InputStream open() throws IOException {
            return file != null ? Files.newInputStream(file) : new ByteArrayInputStream(bytes);
        }
    }
}
