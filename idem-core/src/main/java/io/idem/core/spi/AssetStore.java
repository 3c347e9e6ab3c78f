package io.idem.core.spi;

import io.idem.core.outcome.GenerationResult;
import java.io.IOException;
import java.util.List;
import java.util.UUID;

/** Keeps delivered media. Saving the same attempt twice is harmless. Thread-safe. */
public interface AssetStore {
    /**
     * Keeps {@code result}, taking over (moving or deleting) the files of its spooled items. When it
     * throws, the files it had not yet taken over stay where they are: the caller {@linkplain
     * GenerationResult#discard() discards} them.
     */
    List<StoredAsset> save(UUID attemptId, GenerationResult result) throws IOException;

    byte[] read(String location) throws IOException;

    /** The file as a stream, for serving it without holding it whole (the caller closes it). */
    default java.io.InputStream open(String location) throws IOException {
        return new java.io.ByteArrayInputStream(read(location));
    }
}
