package io.idem.server.assets;

import io.idem.core.outcome.GenerationResult;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.JobReads;
import io.idem.core.spi.StoredAsset;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * The asset store a node runs with. A result item of up to {@link #INLINE_LIMIT} bytes held in
 * memory (an image, most often) is kept in the database: its bytes travel with the {@link
 * StoredAsset} into the {@code assets} row that the settle writes, so it is durable with that very
 * commit and costs no file. A larger item, or one spooled to disk (a video), is a file of {@link
 * FileAssetStore}. Reads go wherever the location says. Thread-safe.
 */
public final class TieredAssetStore implements AssetStore {
    /** The largest item kept in the database. */
    public static final int INLINE_LIMIT = 64 * 1024;

    /** How the location of an item kept in the database begins (its asset id follows). */
    static final String IN_DATABASE = "db:";

    private final FileAssetStore files;
    private final JobReads reads;

    public TieredAssetStore(FileAssetStore files, JobReads reads) {
        this.files = files;
        this.reads = reads;
    }

    @Override
    public List<StoredAsset> save(UUID attemptId, GenerationResult result) throws IOException {
        List<StoredAsset> saved = new ArrayList<>();
        int index = 0;
        for (GenerationResult.Media media : result.media()) {
            saved.add(
                    !media.isSpooled() && media.bytes().length <= INLINE_LIMIT
                            ? inline(attemptId, index, media)
                            : files.saveFile(attemptId, index, media));
            index++;
        }
        return saved;
    }

    private static StoredAsset inline(UUID attemptId, int index, GenerationResult.Media media) throws IOException {
        FileAssetStore.extension(media); // the same types as a file
        UUID id = FileAssetStore.assetId(attemptId, index);
        String sha256 = HexFormat.of().formatHex(FileAssetStore.sha256().digest(media.bytes()));
        return new StoredAsset(id, media.mimeType(), media.bytes().length, sha256, IN_DATABASE + id, media.bytes());
    }

    @Override
    public byte[] read(String location) throws IOException {
        if (!location.startsWith(IN_DATABASE)) {
            return files.read(location);
        }
        UUID id;
        try {
            id = UUID.fromString(location.substring(IN_DATABASE.length()));
        } catch (IllegalArgumentException e) {
            throw new IOException("not an asset location: " + location);
        }
        return reads.assetContent(id).orElseThrow(() -> new IOException("asset " + id + " has no stored content"));
    }

    @Override
    public InputStream open(String location) throws IOException {
        return location.startsWith(IN_DATABASE) ? AssetStore.super.open(location) : files.open(location);
    }
}
