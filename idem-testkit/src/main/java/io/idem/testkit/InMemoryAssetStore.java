package io.idem.testkit;

import io.idem.core.outcome.GenerationResult;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.StoredAsset;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@link AssetStore} in memory. Saving an attempt twice keeps the first copy, as the file store
 * does; a spooled item's file is read and deleted, as the file store takes it over. {@link
 * #failing()} makes every save fail, for the "a paid result we could not keep" paths. Thread-safe.
 */
public final class InMemoryAssetStore implements AssetStore {
    private final Map<UUID, List<StoredAsset>> saved = new HashMap<>();
    private final Map<String, byte[]> bytes = new HashMap<>();
    private boolean failing;

    /** From now on every save throws, as a full disk would. */
    public synchronized InMemoryAssetStore failing() {
        failing = true;
        return this;
    }

    @Override
    public synchronized List<StoredAsset> save(UUID attemptId, GenerationResult result) throws IOException {
        if (failing) {
            throw new IOException("asset store is failing (test)");
        }
        List<StoredAsset> existing = saved.get(attemptId);
        if (existing != null) {
            result.discard(); // the first copy is kept
            return existing;
        }
        List<StoredAsset> assets = new ArrayList<>();
        for (GenerationResult.Media media : result.media()) {
            String location = "memory:" + attemptId + "/" + assets.size();
            byte[] content;
            try (var in = media.open()) {
                content = in.readAllBytes();
            }
            media.discard(); // taken over, as the file store moves a spooled file into place
            bytes.put(location, content);
            assets.add(new StoredAsset(UUID.randomUUID(), media.mimeType(), content.length, "sha", location));
        }
        saved.put(attemptId, List.copyOf(assets));
        return saved.get(attemptId);
    }

    @Override
    public synchronized byte[] read(String location) throws IOException {
        byte[] found = bytes.get(location);
        if (found == null) {
            throw new IOException("no asset at " + location);
        }
        return found.clone();
    }
}
