package io.idem.core.spi;

import java.util.UUID;

/** A result file written to the asset store, to be linked to its attempt and job. */
public record StoredAsset(UUID id, String mimeType, long bytes, String sha256, String location) {}
