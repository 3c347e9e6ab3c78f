package io.idem.providers.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The fake vendor's video routes on the wire. */
class FakeVideoVendorTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static FakeVendorServer vendor;

    @BeforeAll
    static void start() {
        vendor = FakeVendorServer.start(0);
    }

    @AfterAll
    static void stop() {
        vendor.close();
    }

    private static HttpResponse<byte[]> send(String method, String path, String simulate, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(vendor.baseUrl() + path))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (simulate != null) {
            request.header("X-Idem-Simulate", simulate);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static JsonNode json(HttpResponse<byte[]> response) throws Exception {
        return JSON.readTree(response.body());
    }

    private static String video(String reference, int seconds) {
        return "{\"model\":\"fake-video\",\"prompt\":\"a red kite\",\"seconds\":\"" + seconds
                + "\",\"size\":\"1280x720\",\"reference\":\"" + reference + "\"}";
    }

    @Test
    void aVideoIsAcceptedPolledAndFetchedAsADeterministicMp4BilledPerSecond() throws Exception {
        JsonNode accepted = json(send("POST", "/v1/videos", "ok", video("v-ok", 6)));
        String id = accepted.get("id").asText();

        JsonNode done = json(send("GET", "/v1/videos/" + id, null, null));
        byte[] clip = send("GET", "/v1/videos/" + id + "/content", null, null).body();
        byte[] again = send("GET", "/v1/videos/" + id + "/content", null, null).body();

        assertThat(id).startsWith("video_");
        assertThat(accepted.get("kind").asText()).isEqualTo("video");
        assertThat(done.get("status").asText()).isEqualTo("succeeded");
        assertThat(new BigDecimal(done.get("cost_usd").asText())).isEqualByComparingTo("0.30");
        assertThat(new String(clip, 4, 4, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("ftyp");
        assertThat(ByteBuffer.wrap(clip, 0, 4).getInt()).isEqualTo(24); // the ftyp box's own length
        assertThat(clip).isEqualTo(again);
        assertThat(vendor.ledger()).anyMatch(line -> "v-ok".equals(line.reference()));
    }

    @Test
    void aSlowVideoRendersUntilItsTimeAndACancelMeanwhileBillsNothing() throws Exception {
        String slow = json(send("POST", "/v1/videos", "slow:300", video("v-slow", 4)))
                .get("id")
                .asText();
        String canceled = json(send("POST", "/v1/videos", "slow:30000", video("v-cancel", 4)))
                .get("id")
                .asText();

        assertThat(json(send("GET", "/v1/videos/" + slow, null, null))
                        .get("status")
                        .asText())
                .isEqualTo("running");
        assertThat(send("GET", "/v1/videos/" + slow + "/content", null, null).statusCode())
                .isEqualTo(404);
        assertThat(send("DELETE", "/v1/videos/" + canceled, null, null).statusCode())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> json(send("GET", "/v1/videos/" + slow, null, null))
                        .get("status")
                        .asText()
                        .equals("succeeded"));
        assertThat(json(send("GET", "/v1/videos/" + canceled, null, null))
                        .get("status")
                        .asText())
                .isEqualTo("canceled");
        assertThat(send("POST", "/v1/videos/" + canceled + "/cancel", null, null)
                        .statusCode())
                .isEqualTo(409);
        assertThat(vendor.ledger()).noneMatch(line -> "v-cancel".equals(line.reference()));
    }

    @Test
    void aLostAnswerIsFoundAgainByOurReference() throws Exception {
        try {
            send("POST", "/v1/videos", "disconnect", video("v-lost-answer", 4));
        } catch (java.io.IOException expected) {
            // the vendor drops the connection after it accepted and billed the video
        }

        JsonNode found = json(send("GET", "/v1/videos?reference=v-lost-answer", null, null));

        assertThat(found.get("status").asText()).isEqualTo("succeeded");
        assertThat(found.get("billed").asBoolean()).isTrue();
    }

    @Test
    void aBadVideoRequestIsRefusedNamingTheField() throws Exception {
        HttpResponse<byte[]> noSeconds =
                send("POST", "/v1/videos", "ok", "{\"model\":\"m\",\"prompt\":\"p\",\"reference\":\"v-bad\"}");

        assertThat(noSeconds.statusCode()).isEqualTo(400);
        assertThat(json(noSeconds).get("error").get("code").asText()).isEqualTo("invalid_seconds");
    }
}
