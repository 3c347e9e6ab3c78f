package io.idem.server.videos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Video jobs end to end through the demo's two fake vendors, mode by mode. */
class VideoJobsTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String create(String primaryMode, int seconds) {
        String body = """
                {"prompt": "Waves under a lighthouse", "kind": "video", "duration_seconds": %d, "timeout": 1,
                 "provider_policy": {"primary": "primary", "backup": "backup"},
                 "simulate": {"primary": "%s"}}
                """.formatted(seconds, primaryMode);
        var created = server.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(created.status()).as(created.raw()).isEqualTo(202);
        return created.body().get("id").asText();
    }

    private static JsonNode settled(String id) {
        JsonNode[] job = new JsonNode[1];
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    job[0] = server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
                    String state = job[0].get("state").asText();
                    return !state.equals("queued") && !state.equals("running");
                });
        return job[0];
    }

    private static List<String> billing(JsonNode job) {
        List<String> values = new ArrayList<>();
        job.get("attempts")
                .forEach(a -> values.add(a.get("provider").asText() + ":"
                        + a.get("billable").asText() + ":" + a.get("cost_usd").asText()));
        return values;
    }

    private static byte[] asset(JsonNode job) throws Exception {
        JsonNode file = job.get("result").get("images").get(0);
        assertThat(file.get("mime_type").asText()).isEqualTo("video/mp4");
        HttpResponse<byte[]> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(file.get("url").asText()))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("video/mp4");
        return response.body();
    }

    @Test
    void aVideoIsMadeStoredAndBilledPerSecond() throws Exception {
        JsonNode job = settled(create("ok", 8));

        assertThat(job.get("state").asText()).as(job.toString()).isEqualTo("succeeded");
        assertThat(job.get("kind").asText()).isEqualTo("video");
        assertThat(job.get("video").get("duration_seconds").asInt()).isEqualTo(8);
        // 8 seconds at the demo's 0.05 USD a second, written ahead and confirmed
        assertThat(billing(job)).containsExactly("primary:yes:0.4");
        byte[] clip = asset(job);
        assertThat(new String(clip, 4, 4, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("ftyp");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "ok          | succeeded     | primary:yes",
                "http_503    | succeeded     | primary:no,backup:yes",
                "http_429    | succeeded     | primary:no,backup:yes",
                "refuse      | succeeded     | primary:no,backup:yes",
                "malformed   | succeeded     | primary:no,backup:yes",
                "auth        | succeeded     | primary:no,backup:yes",
                "user_error  | failed        | primary:no",
                "policy      | failed        | primary:no",
                "timeout     | manual_review | primary:unknown",
                "disconnect  | manual_review | primary:unknown",
                "lost        | manual_review | primary:unknown",
                "slow:100    | succeeded     | primary:yes",
                "slow:4000   | manual_review | primary:unknown",
            })
    void everySimulateModeEndsAVideoJobAsItEndsAnImageJob(String mode, String state, String billing) {
        JsonNode job = settled(create(mode, 4));

        assertThat(job.get("state").asText()).as(job.toString()).isEqualTo(state);
        List<String> billed = new ArrayList<>();
        job.get("attempts")
                .forEach(a -> billed.add(
                        a.get("provider").asText() + ":" + a.get("billable").asText()));
        assertThat(billed).containsExactly(billing.split(","));
    }

    @Test
    void aVendorErrorFailsOverToTheBackup() {
        JsonNode job = settled(create("http_503", 4));

        assertThat(job.get("state").asText()).as(job.toString()).isEqualTo("succeeded");
        assertThat(job.get("result").get("provider").asText()).isEqualTo("backup");
        assertThat(billing(job)).containsExactly("primary:no:0", "backup:yes:0.2");
    }

    @Test
    void aLostAnswerParksAndReconcileFindsTheVideoByOurReference() {
        String id = create("timeout", 4);
        JsonNode parked = settled(id);
        assertThat(parked.get("state").asText()).as(parked.toString()).isEqualTo("manual_review");
        assertThat(parked.get("attempts").get(0).get("provider_request_id").isNull())
                .isTrue();

        var reconciled = server.post("/v1/jobs/" + id + "/reconcile", TestServer.ADMIN_KEY, null);

        assertThat(reconciled.status()).as(reconciled.raw()).isEqualTo(200);
        JsonNode job = settled(id);
        assertThat(job.get("state").asText()).as(job.toString()).isEqualTo("succeeded");
        assertThat(job.get("result").get("provider").asText()).isEqualTo("primary");
        assertThat(billing(job)).containsExactly("primary:yes:0.2");
    }

    @Test
    void aVideoLostInsideTheVendorIsFoundUnbilledAndTheBackupMakesIt() {
        String id = create("lost", 4);
        assertThat(settled(id).get("state").asText()).isEqualTo("manual_review");

        // "not found" and "failed, not billed" are trusted once the call's timeout and a grace are over
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> !server.post("/v1/jobs/" + id + "/reconcile", TestServer.ADMIN_KEY, null)
                        .body()
                        .get("state")
                        .asText()
                        .equals("manual_review"));

        JsonNode job = settled(id);
        assertThat(job.get("state").asText()).as(job.toString()).isEqualTo("succeeded");
        assertThat(job.get("result").get("provider").asText()).isEqualTo("backup");
        assertThat(job.get("attempts").get(0).get("billable").asText()).isEqualTo("no");
        assertThat(job.get("attempts").get(1).get("billable").asText()).isEqualTo("yes");
    }

    @Test
    void aCanceledVideoIsStoppedAtTheVendorAndNotBilled() {
        String id = server.post("/v1/jobs", TestServer.ADMIN_KEY, """
                        {"prompt": "A very long pan", "kind": "video", "timeout": 60,
                         "provider_policy": {"primary": "primary"}, "simulate": {"primary": "slow:30000"}}
                        """)
                .body()
                .get("id")
                .asText();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                        .body()
                        .get("attempts")
                        .path(0)
                        .path("provider_request_id")
                        .isTextual());

        var reply = server.post("/v1/jobs/" + id + "/cancel", TestServer.ADMIN_KEY, null);

        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().get("state").asText()).isEqualTo("canceled");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                        .body()
                        .get("attempts")
                        .get(0)
                        .get("finished_at")
                        .isTextual());
        JsonNode job = server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
        assertThat(job.get("attempts").get(0).get("billable").asText()).isEqualTo("no");
        String reference = job.get("attempts").get(0).get("id").asText();
        assertThat(server.node().fakes().get("primary").ledger()).noneMatch(line -> reference.equals(line.reference()));
    }
}
