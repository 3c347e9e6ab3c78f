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
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The OpenAI-shaped {@code /v1/videos} routes over the demo's fake vendors. */
class VideosApiTest {
    private static TestServer server;
    private static String client;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        client = server.newKey("studio", "client");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static TestServer.Reply create(String key, String idempotencyKey, String body) {
        return server.send(
                "POST",
                "/v1/videos",
                key,
                body,
                idempotencyKey == null ? Map.of() : Map.of("Idempotency-Key", idempotencyKey));
    }

    private static JsonNode completed(String id, String key) {
        JsonNode[] video = new JsonNode[1];
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    video[0] = server.get("/v1/videos/" + id, key).body();
                    return video[0].get("status").asText().equals("completed");
                });
        return video[0];
    }

    private static HttpResponse<byte[]> content(String id, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create(server.node().baseUrl() + "/v1/videos/" + id + "/content"))
                .header("Authorization", "Bearer " + client);
        headers.forEach(request::header);
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void aVideoIsCreatedInOpenAisShapeAndItsClipIsFetchable() throws Exception {
        var created =
                create(client, null, "{\"prompt\": \"A paper boat\", \"seconds\": \"8\", \"size\": \"720x1280\"}");

        assertThat(created.status()).as(created.raw()).isEqualTo(200);
        assertThat(created.body().get("object").asText()).isEqualTo("video");
        assertThat(created.body().get("status").asText()).isIn("queued", "in_progress", "completed");
        assertThat(created.body().get("seconds").asText()).isEqualTo("8");
        assertThat(created.body().get("size").asText()).isEqualTo("720x1280");
        String id = created.body().get("id").asText();
        JsonNode video = completed(id, client);
        assertThat(video.get("progress").asInt()).isEqualTo(100);
        assertThat(video.get("idem").get("state").asText()).isEqualTo("succeeded");
        assertThat(video.get("idem").get("spent_usd").asText()).isEqualTo("0.4");
        // the same job, seen as a job
        JsonNode job = server.get("/v1/jobs/" + id, client).body();
        assertThat(job.get("kind").asText()).isEqualTo("video");
        assertThat(job.get("video").get("aspect_ratio").asText()).isEqualTo("9:16");

        HttpResponse<byte[]> whole = content(id, Map.of());
        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(whole.headers().firstValue("Content-Type").orElse("")).startsWith("video/mp4");
        assertThat(new String(whole.body(), 4, 4, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("ftyp");
    }

    @Test
    void aRangeRequestGetsPartialContent() throws Exception {
        String id = create(client, null, "{\"prompt\": \"A slow zoom\", \"seconds\": 4}")
                .body()
                .get("id")
                .asText();
        completed(id, client);
        byte[] whole = content(id, Map.of()).body();

        HttpResponse<byte[]> part = content(id, Map.of("Range", "bytes=4-11"));

        assertThat(part.statusCode()).isEqualTo(206);
        assertThat(part.headers().firstValue("Content-Range")).contains("bytes 4-11/" + whole.length);
        assertThat(part.body()).isEqualTo(java.util.Arrays.copyOfRange(whole, 4, 12));
        HttpResponse<byte[]> tail = content(id, Map.of("Range", "bytes=-10"));
        assertThat(tail.statusCode()).isEqualTo(206);
        assertThat(tail.body()).isEqualTo(java.util.Arrays.copyOfRange(whole, whole.length - 10, whole.length));
        assertThat(content(id, Map.of("Range", "bytes=" + whole.length + "-")).statusCode())
                .isEqualTo(416);
    }

    @Test
    void theSameIdempotencyKeyReplaysTheVideoAndRefusesOtherInput() {
        String body = "{\"prompt\": \"A kite at dusk\", \"seconds\": \"4\", \"size\": \"1280x720\"}";
        var first = create(client, "video-key-1", body);
        var again = create(client, "video-key-1", body);
        // the same clip asked for as a job is the same request
        var asJob = server.send(
                "POST",
                "/v1/jobs",
                client,
                "{\"prompt\": \"A kite at dusk\", \"kind\": \"video\", \"duration_seconds\": 4,"
                        + " \"resolution\": \"720p\", \"aspect_ratio\": \"16:9\"}",
                Map.of("Idempotency-Key", "video-key-1"));
        var other = create(client, "video-key-1", body.replace("\"4\"", "\"8\""));

        assertThat(first.status()).as(first.raw()).isEqualTo(200);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.body().get("id").asText())
                .isEqualTo(first.body().get("id").asText());
        assertThat(asJob.status()).as(asJob.raw()).isEqualTo(200);
        assertThat(asJob.body().get("id").asText())
                .isEqualTo(first.body().get("id").asText());
        assertThat(other.status()).isEqualTo(409);
        assertThat(other.body().get("error").get("code").asText()).isEqualTo("idempotency_key_reused");
    }

    @Test
    void theListHoldsOnlyTheKeysOwnVideos() {
        String mine =
                create(client, null, "{\"prompt\": \"Mine\"}").body().get("id").asText();
        String theirs = create(server.newKey("other-studio", "client"), null, "{\"prompt\": \"Theirs\"}")
                .body()
                .get("id")
                .asText();
        String image = server.post("/v1/jobs", client, "{\"prompt\": \"An image\"}")
                .body()
                .get("id")
                .asText();

        JsonNode list = server.get("/v1/videos?limit=100", client).body();

        List<String> ids = new ArrayList<>();
        list.get("data").forEach(v -> ids.add(v.get("id").asText()));
        assertThat(list.get("object").asText()).isEqualTo("list");
        assertThat(ids).contains(mine).doesNotContain(theirs, image);
        assertThat(server.get("/v1/videos/" + image, client).status()).isEqualTo(404);
    }

    @Test
    void deleteCancelsARenderingVideoAtTheVendor() {
        String id = create(
                        client,
                        null,
                        "{\"prompt\": \"A long take\", \"timeout\": 60, \"provider_policy\": {\"primary\": \"primary\"},"
                                + " \"simulate\": {\"primary\": \"slow:30000\"}}")
                .body()
                .get("id")
                .asText();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> server.get("/v1/jobs/" + id, client)
                        .body()
                        .get("attempts")
                        .path(0)
                        .path("provider_request_id")
                        .isTextual());

        var deleted = server.send("DELETE", "/v1/videos/" + id, client, null, Map.of());

        assertThat(deleted.status()).as(deleted.raw()).isEqualTo(200);
        assertThat(deleted.body().get("status").asText()).isEqualTo("failed");
        assertThat(deleted.body().get("idem").get("state").asText()).isEqualTo("canceled");
        assertThat(deleted.body().get("deleted").asBoolean()).isTrue();
        assertThat(deleted.body().get("error").get("code").asText()).isEqualTo("canceled");
        assertThat(content(id).statusCode()).isEqualTo(409);
        assertThat(server.send("DELETE", "/v1/videos/" + id, client, null, Map.of())
                        .status())
                .isEqualTo(409);
    }

    private static HttpResponse<byte[]> content(String id) {
        try {
            return content(id, Map.of());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aVideoThatFailsEverywhereIsFailedWithItsError() {
        String id = create(client, null, "{\"prompt\": \"Refused\", \"simulate\": {\"primary\": \"user_error\"}}")
                .body()
                .get("id")
                .asText();

        JsonNode[] video = new JsonNode[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            video[0] = server.get("/v1/videos/" + id, client).body();
            return video[0].get("status").asText().equals("failed");
        });
        assertThat(video[0].get("idem").get("state").asText()).isEqualTo("failed");
        assertThat(video[0].get("error").get("code").asText()).isNotBlank();
    }

    @Test
    void aClipNoProviderCanMakeIsRefusedSayingWhy() {
        var tooLong = create(client, null, "{\"prompt\": \"Forever\", \"seconds\": \"600\"}");
        var notSeconds = create(client, null, "{\"prompt\": \"Forever\", \"seconds\": \"long\"}");

        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.body().get("error").get("code").asText()).isEqualTo("invalid_duration_seconds");
        assertThat(notSeconds.status()).isEqualTo(400);
        assertThat(notSeconds.body().get("error").get("code").asText()).isEqualTo("invalid_seconds");
    }

    @Test
    void aProviderThatDeclaresItsClipsIsSkippedForOthersAndARequestNoneCanMakeIsRefused() {
        try (TestServer limited = TestServer.start(Map.of(), """
                providers:
                  short: {adapter: fake, capabilities: {video: {durations: [4], resolutions: [720p]}}}
                  images: {adapter: fake, capabilities: {kinds: [image]}}
                lanes: {standard: [images, short]}
                """)) {
            var ok = limited.post("/v1/videos", TestServer.ADMIN_KEY, "{\"prompt\": \"Short\", \"seconds\": 4}");
            var refused = limited.post("/v1/videos", TestServer.ADMIN_KEY, "{\"prompt\": \"Long\", \"seconds\": 8}");

            assertThat(ok.status()).as(ok.raw()).isEqualTo(200);
            assertThat(limited.get("/v1/jobs/" + ok.body().get("id").asText(), TestServer.ADMIN_KEY)
                            .body()
                            .get("candidates"))
                    .extracting(JsonNode::asText)
                    .containsExactly("short");
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.body().get("error").get("code").asText()).isEqualTo("no_eligible_provider");
            assertThat(refused.body().get("error").get("message").asText())
                    .contains("short=duration_unsupported")
                    .contains("images=kind_unsupported");
        }
    }
}
