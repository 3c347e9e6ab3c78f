package io.idem.core.spi;

import io.idem.core.outcome.GenerationResult;
import java.io.IOException;
import java.util.List;
import java.util.UUID;

/** Keeps delivered media. Saving the same attempt twice is harmless. Thread-safe. */
public interface AssetStore {
    List<StoredAsset> save(UUID attemptId, GenerationResult result) throws IOException;

    byte[] read(String location) throws IOException;
}
