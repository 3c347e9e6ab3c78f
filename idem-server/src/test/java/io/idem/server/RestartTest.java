package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Nothing accepted is lost: jobs queued before a stop are done after the next start. */
class RestartTest {

    @Test
    void jobsQueuedBeforeAStopAreDoneAfterTheNextStartOnTheEmbeddedDatabase() throws Exception {
        Path dataDir = Files.createTempDirectory("idem-restart");
        Map<String, String> embedded = Map.of("IDEM_DATABASE_URL", "", "IDEM_DATA_DIR", dataDir.toString());
        List<String> ids = new ArrayList<>();
        try (TestServer apiOnly = TestServer.start(with(embedded, "IDEM_ROLE", "api"))) {
            for (int i = 0; i < 20; i++) {
                ids.add(apiOnly.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"job " + i + "\"}")
                        .body()
                        .get("id")
                        .asText());
            }
        }
        try (TestServer full = TestServer.start(embedded)) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                for (String id : ids) {
                    assertThat(full.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                                    .body()
                                    .get("state")
                                    .asText())
                            .isEqualTo("succeeded");
                }
            });
        }
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        var copy = new java.util.HashMap<>(base);
        copy.put(key, value);
        return copy;
    }
}
