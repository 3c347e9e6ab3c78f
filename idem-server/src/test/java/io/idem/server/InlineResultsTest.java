package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.spi.StoredAsset;
import io.idem.postgres.PgJobReads;
import io.idem.server.assets.FileAssetStore;
import io.idem.server.assets.TieredAssetStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small results are kept in the database row the settle writes (durable with that commit, no file);
 * large or spooled ones stay files. Both are served the same way.
 */
class InlineResultsTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** One stored asset row as the database holds it. */
    private record Row(String location, byte[] content, long bytes, String sha256) {}

    @Test
    void aSmallResultIsWrittenWithItsSettleAndServedFromTheDatabaseWithNoFile() throws Exception {
        var accepted = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"a lighthouse, kept inline\"}");
        assertThat(accepted.status()).as(accepted.raw()).isEqualTo(202);
        String id = accepted.body().get("id").asText();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                        .body()
                        .get("state")
                        .asText()
                        .equals("succeeded"));
        JsonNode job = server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();

        Row row = row(UUID.fromString(id));
        assertThat(row.location()).startsWith("db:");
        assertThat(row.content()).isNotNull().hasSize((int) row.bytes());
        assertThat(row.sha256()).isEqualTo(sha256(row.content()));
        String url = job.get("result").get("images").get(0).get("url").asText();
        var served = server.get(url.substring(url.indexOf("/v1/")), null);
        assertThat(served.status()).isEqualTo(200);
        assertThat(served.raw()).startsWith("<svg");
        assertThat(served.raw().getBytes(StandardCharsets.UTF_8)).isEqualTo(row.content());
        Path files = server.dataDir.resolve("assets");
        if (Files.exists(files)) {
            try (Stream<Path> walk = Files.walk(files)) {
                assertThat(walk.filter(Files::isRegularFile)).isEmpty();
            }
        }
    }

    @Test
    void anItemAboveTheLimitIsAFileAndAnInlineOneIsReadOnlyOnceItsRowIsWritten(@TempDir Path root) throws Exception {
        var store = new TieredAssetStore(
                new FileAssetStore(root), new PgJobReads(server.node().database()));
        byte[] large = new byte[TieredAssetStore.INLINE_LIMIT + 1];
        new java.util.Random(3).nextBytes(large);
        byte[] small = "<svg/>".getBytes(StandardCharsets.UTF_8);
        UUID attempt = UUID.randomUUID();

        List<StoredAsset> saved = store.save(
                attempt,
                new GenerationResult(List.of(
                        new GenerationResult.Media(large, "image/png"),
                        new GenerationResult.Media(small, "image/svg+xml"))));

        StoredAsset file = saved.get(0);
        assertThat(file.inline()).isEmpty();
        assertThat(file.location()).doesNotStartWith("db:").endsWith(".png");
        assertThat(root.resolve(file.location())).exists();
        assertThat(store.read(file.location())).isEqualTo(large);
        assertThat(file.bytes()).isEqualTo(large.length);
        StoredAsset inline = saved.get(1);
        assertThat(inline.inline()).hasValue(small);
        assertThat(inline.sha256()).isEqualTo(sha256(small));
        assertThat(inline.bytes()).isEqualTo(small.length);
        // no settle wrote its row: there is nothing to serve, and nothing was written anywhere else
        assertThatThrownBy(() -> store.read(inline.location())).isInstanceOf(IOException.class);
        assertThat(store.save(attempt, new GenerationResult(List.of(new GenerationResult.Media(large, "image/png")))))
                .extracting(StoredAsset::id)
                .containsExactly(file.id());
        assertThatThrownBy(() -> store.save(
                        attempt, new GenerationResult(List.of(new GenerationResult.Media(small, "application/x-sh")))))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> store.read("db:not-a-uuid")).isInstanceOf(IOException.class);
    }

    private static Row row(UUID jobId) {
        return server.node().database().withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT location, content, bytes, sha256 FROM assets WHERE job_id = ?")) {
                ps.setObject(1, jobId);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    return new Row(rs.getString(1), rs.getBytes(2), rs.getLong(3), rs.getString(4));
                }
            }
        });
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
