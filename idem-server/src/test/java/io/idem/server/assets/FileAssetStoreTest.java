package io.idem.server.assets;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.outcome.GenerationResult;
import io.idem.core.spi.StoredAsset;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileAssetStoreTest {
    @TempDir
    Path root;

    @TempDir
    Path spool;

    @Test
    void aSpooledClipIsStreamedIntoPlaceHashedAndItsSpoolFileRemoved() throws Exception {
        byte[] clip = new byte[300_000];
        new java.util.Random(7).nextBytes(clip);
        Path spooled = Files.write(spool.resolve("clip.part"), clip);
        FileAssetStore store = new FileAssetStore(root);

        UUID attempt = UUID.randomUUID();
        var result = new GenerationResult(List.of(GenerationResult.Media.spooled(spooled, "video/mp4")));

        List<StoredAsset> saved = store.save(attempt, result);
        List<StoredAsset> again = store.save(attempt, result);

        StoredAsset asset = saved.getFirst();
        assertThat(asset.bytes()).isEqualTo(clip.length);
        assertThat(asset.location()).endsWith(".mp4");
        assertThat(asset.sha256())
                .isEqualTo(HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(clip)));
        assertThat(spooled).doesNotExist();
        assertThat(again).isEqualTo(saved);
        try (InputStream in = store.open(asset.location())) {
            assertThat(in.readAllBytes()).isEqualTo(clip);
        }
    }

    @Test
    void anImageInMemoryIsKeptAsBefore() throws Exception {
        byte[] svg = "<svg/>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        FileAssetStore store = new FileAssetStore(root);

        StoredAsset asset = store.save(
                        UUID.randomUUID(),
                        new GenerationResult(List.of(new GenerationResult.Media(svg, "image/svg+xml"))))
                .getFirst();

        assertThat(store.read(asset.location())).isEqualTo(svg);
        assertThat(asset.bytes()).isEqualTo(svg.length);
    }
}
