package io.idem.core.spi;

import java.util.Optional;
import java.util.UUID;

/**
 * A kept result, to be linked to its attempt and job: in a file of the asset store ({@code content}
 * null), or small enough to be written into the database with the settle that links it ({@code
 * content} its bytes, {@code location} the asset store's name for that).
 */
public record StoredAsset(UUID id, String mimeType, long bytes, String sha256, String location, byte[] content) {
    /** A result kept in a file at {@code location}. */
    public StoredAsset(UUID id, String mimeType, long bytes, String sha256, String location) {
        this(id, mimeType, bytes, sha256, location, null);
    }

    /** The bytes when they go into the database with the settle; empty for a file. */
    public Optional<byte[]> inline() {
        return Optional.ofNullable(content);
    }
}
