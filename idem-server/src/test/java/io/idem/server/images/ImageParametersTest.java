package io.idem.server.images;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import io.idem.server.http.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Image parameters through a whole node: intake, the stored job, what the fake vendor received, idempotency. */
class ImageParametersTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static final String ALL = """
            {"prompt": "a fox", "size": "auto", "quality": "high", "style": "vivid", "background": "transparent",
             "output_format": "webp", "output_compression": 70, "moderation": "low",
             "provider_options": {"seed": 3, "prompt": "not this one"}}""";

    /** What the in-process fake vendor that made {@code attemptId} was sent, as its generation record shows. */
    private static JsonNode atVendor(String attemptId) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (var fake : server.node().fakes().values()) {
            URI uri = URI.create(fake.baseUrl() + "/v1/images/generations?reference=" + attemptId);
            var response = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                return Json.MAPPER.readTree(response.body());
            }
        }
        throw new AssertionError("no fake vendor saw attempt " + attemptId);
    }

    @Test
    void everyImageParameterReachesTheVendorAndIsStoredWithTheJob() throws Exception {
        var reply = server.send("POST", "/v1/images/generations", TestServer.ADMIN_KEY, ALL, Map.of());
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);

        var job = server.get("/v1/jobs/" + reply.header("Idem-Job-Id"), TestServer.ADMIN_KEY)
                .body();
        assertThat(job.get("size").asText()).isEqualTo("auto");
        assertThat(job.at("/image/quality").asText()).isEqualTo("high");
        assertThat(job.at("/image/output_compression").asInt()).isEqualTo(70);
        assertThat(job.at("/image/provider_options/seed").asInt()).isEqualTo(3);

        JsonNode sent = atVendor(job.at("/attempts/0/id").asText()).get("image_options");
        assertThat(sent.get("size").asText()).isEqualTo("auto");
        assertThat(sent.get("quality").asText()).isEqualTo("high");
        assertThat(sent.get("style").asText()).isEqualTo("vivid");
        assertThat(sent.get("background").asText()).isEqualTo("transparent");
        assertThat(sent.get("output_format").asText()).isEqualTo("webp");
        assertThat(sent.get("output_compression").asInt()).isEqualTo(70);
        assertThat(sent.get("moderation").asText()).isEqualTo("low");
        assertThat(sent.get("seed").asInt()).as("provider options go verbatim").isEqualTo(3);
        assertThat(sent.has("prompt")).as("but never over a field Idem sets").isFalse();
    }

    @Test
    void theSameKeyWithAnotherQualityIsAReusedKey() {
        Map<String, String> key = Map.of("Idempotency-Key", "image-quality-1");
        String high = "{\"prompt\": \"a fox\", \"quality\": \"high\"}";
        assertThat(server.send("POST", "/v1/jobs", TestServer.ADMIN_KEY, high, key)
                        .status())
                .isEqualTo(202);
        assertThat(server.send("POST", "/v1/jobs", TestServer.ADMIN_KEY, high, key)
                        .header("Idempotent-Replayed"))
                .isEqualTo("true");

        var other = server.send(
                "POST", "/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"a fox\", \"quality\": \"low\"}", key);
        assertThat(other.status()).isEqualTo(409);
        assertThat(other.body().at("/error/code").asText()).isEqualTo("idempotency_key_reused");
    }

    @Test
    void aBadParameterIsRefusedAtBothDoorsNamingIt() {
        for (String path : new String[] {"/v1/jobs", "/v1/images/generations"}) {
            var reply = server.post(path, TestServer.ADMIN_KEY, "{\"prompt\": \"a fox\", \"style\": \"bold\"}");
            assertThat(reply.status()).as(path).isEqualTo(400);
            assertThat(reply.body().at("/error/code").asText()).isEqualTo("invalid_style");
            assertThat(reply.body().at("/error/message").asText()).contains("style");
        }
    }

    /** A 1x1 PNG's first bytes are all the fake vendor and Idem look at. */
    static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};

    private static TestServer.Reply upload(io.idem.providers.http.MultipartBody form, Map<String, String> headers)
            throws Exception {
        byte[] bytes = form.bytes();
        var request = HttpRequest.newBuilder(URI.create(server.node().baseUrl() + "/v1/images/edits"))
                .header("Authorization", "Bearer " + TestServer.ADMIN_KEY)
                .header("Content-Type", form.contentType())
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
        headers.forEach(request::header);
        var response = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json = response.body().startsWith("{") ? Json.MAPPER.readTree(response.body()) : null;
        return new TestServer.Reply(response.statusCode(), response.headers().map(), json, response.body());
    }

    @Test
    void anEditUploadsItsImagesAndMaskAndTheFakeVendorSeesThem() throws Exception {
        var reply = upload(
                new io.idem.providers.http.MultipartBody()
                        .field("prompt", "add a hat")
                        .field("n", "1")
                        .field("quality", "low")
                        .field("response_format", "b64_json")
                        .file("image", "fox.png", "image/png", PNG)
                        .file("mask", "mask.png", "image/png", PNG),
                Map.of());
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().at("/data/0/b64_json").asText()).isNotBlank();

        var job = server.get("/v1/jobs/" + reply.header("Idem-Job-Id"), TestServer.ADMIN_KEY)
                .body();
        assertThat(job.at("/image/inputs/0/role").asText()).isEqualTo("image");
        assertThat(job.at("/image/inputs/1/role").asText()).isEqualTo("mask");
        assertThat(job.at("/image/inputs/0/bytes").asInt()).isEqualTo(PNG.length);

        JsonNode sent = atVendor(job.at("/attempts/0/id").asText()).get("image_options");
        assertThat(sent.get("image_types").toString()).isEqualTo("[\"image/png\"]");
        assertThat(sent.get("mask").asText()).isEqualTo("image/png");
        assertThat(sent.get("quality").asText()).isEqualTo("low");
    }

    @Test
    void anEditOfAnotherImageUnderTheSameKeyIsAReusedKey() throws Exception {
        Map<String, String> key = Map.of("Idempotency-Key", "image-edit-1");
        var first = upload(
                new io.idem.providers.http.MultipartBody()
                        .field("prompt", "add a hat")
                        .file("image", "a.png", "image/png", PNG),
                key);
        assertThat(first.status()).as(first.raw()).isEqualTo(200);
        byte[] other = java.util.Arrays.copyOf(PNG, PNG.length + 1);
        var second = upload(
                new io.idem.providers.http.MultipartBody()
                        .field("prompt", "add a hat")
                        .file("image", "a.png", "image/png", other),
                key);
        assertThat(second.status()).isEqualTo(409);
        assertThat(second.body().at("/error/code").asText()).isEqualTo("idempotency_key_reused");
    }

    @Test
    void anUploadThatIsNoImageIsRefusedNamingIt() throws Exception {
        var reply = upload(
                new io.idem.providers.http.MultipartBody()
                        .field("prompt", "add a hat")
                        .file("image", "notes.txt", "image/png", "hello".getBytes()),
                Map.of());
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body().at("/error/code").asText()).isEqualTo("invalid_image");
        assertThat(reply.body().at("/error/message").asText()).contains("notes.txt", "PNG");

        var none = upload(new io.idem.providers.http.MultipartBody().field("prompt", "add a hat"), Map.of());
        assertThat(none.status()).isEqualTo(400);
        assertThat(none.body().at("/error/code").asText()).isEqualTo("missing_image");
    }

    @Test
    void anEditAlsoTakesJsonWithDataUrls() {
        String url = "data:image/png;base64," + java.util.Base64.getEncoder().encodeToString(PNG);
        var reply = server.post(
                "/v1/images/edits",
                TestServer.ADMIN_KEY,
                "{\"prompt\": \"add a hat\", \"images\": [{\"image_url\": \"" + url + "\"}]}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        var refused = server.post(
                "/v1/images/edits",
                TestServer.ADMIN_KEY,
                "{\"prompt\": \"add a hat\", \"images\": [{\"image_url\": \"https://example.com/a.png\"}]}");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().at("/error/code").asText()).isEqualTo("invalid_images");
    }
}
