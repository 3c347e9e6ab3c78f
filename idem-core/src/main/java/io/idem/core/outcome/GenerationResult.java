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
     * Deletes every item's spooled file: for a result that will not be kept (the asset store takes
     * over the files of a result it keeps). Items in memory have nothing to delete.
     */
    public void discard() {
        media.forEach(Media::discard);
    }

    /**
     * One delivered item: small ones in memory ({@code bytes}), large ones (a video) spooled to a
     * file as they arrived ({@code file}), so no clip is ever held whole in memory. Exactly one of the
     * two is set; the asset store takes a spooled file over (moves it) when it keeps the result, and
     * whoever drops a result instead {@linkplain #discard() discards} it.
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

        /**
         * Deletes the spooled file, if there is one, for an item that will not be kept. Never throws:
         * it runs where a result is being dropped, and a file that cannot be deleted now is left to
         * the temporary directory's cleaner rather than fail that path.
         */
        public void discard() {
            if (file == null) {
                return;
            }
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // left behind: see above
            }
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
