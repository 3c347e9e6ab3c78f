package io.idem.core.domain;

import java.util.List;
import java.util.UUID;

/** What a succeeded job delivered: the provider that served it and the stored assets. */
public record JobResult(String provider, UUID attemptId, List<AssetRef> assets) {
    public JobResult {
        assets = List.copyOf(assets);
    }

    /** A stored result file, served at {@code /v1/assets/{id}}. */
    public record AssetRef(UUID id, String mimeType, long bytes) {}
}
