package io.idem.providers.fake;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The fake vendor on the wire, driven by hand. */
class FakeVendorServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static FakeVendorServer vendor;

    @BeforeAll
    static void start() {
        vendor = FakeVendorServer.start(0);
    }

    @AfterAll
    static void stop() {
        vendor.close();
    }

    private static String post(String simulate, String body) {
        return "POST /v1/images/generations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + (simulate == null ? "" : "X-Idem-Simulate: " + simulate + "\r\n")
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    private static String generation(String reference) {
        return "{\"model\":\"m\",\"prompt\":\"a <red> & 'blue' sky\",\"size\":\"64x32\",\"n\":1,\"reference\":\""
                + reference + "\"}";
    }

    @Test
    void healthAnswersOk() throws IOException {
        try (RawConnection connection = new RawConnection(vendor.port())) {
            RawConnection.Response response =
                    connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n").read();

            assertThat(response.status()).isEqualTo(200);
            assertThat(JSON.readTree(response.body()).path("status").asText()).isEqualTo("ok");
        }
    }

    @Test
    void keepAliveServesSeveralRequestsOnOneConnection() throws IOException {
        try (RawConnection connection = new RawConnection(vendor.port())) {
            RawConnection.Response first =
                    connection.send(post("ok", generation("keep-1"))).read();
            RawConnection.Response second =
                    connection.send(post("http_503", generation("keep-2"))).read();
            RawConnection.Response third =
                    connection.send("GET /health HTTP/1.1\r\n\r\n").read();

            assertThat(first.status()).isEqualTo(200);
            assertThat(first.headers().get("x-request-id")).startsWith("gen_");
            assertThat(second.status()).isEqualTo(503);
            assertThat(third.status()).isEqualTo(200);
        }
    }

    @Test
    void aGarbageRequestGets400AndTheServerKeepsServing() throws IOException {
        try (RawConnection connection = new RawConnection(vendor.port())) {
            RawConnection.Response response =
                    connection.send("NOT HTTP AT ALL\r\n\r\n").read();

            assertThat(response.status()).isEqualTo(400);
            assertThat(JSON.readTree(response.body()).path("error").path("code").asText())
                    .isEqualTo("bad_request_line");
        }
        try (RawConnection connection = new RawConnection(vendor.port())) {
            assertThat(connection.send("GET /health HTTP/1.1\r\n\r\n").read().status())
                    .isEqualTo(200);
        }
    }

    @Test
    void refuseNeverSendsContinueAndDropsTheConnection() throws IOException {
        String body = generation("refused-raw");
        try (RawConnection connection = new RawConnection(vendor.port())) {
            connection.send("POST /v1/images/generations HTTP/1.1\r\nX-Idem-Simulate: refuse\r\n"
                    + "Expect: 100-continue\r\nContent-Length: " + body.length() + "\r\n\r\n");

            assertThat(connection.closedSilently()).isTrue();
        }
        assertThat(vendor.ledger()).noneMatch(entry -> "refused-raw".equals(entry.reference()));
    }

    @Test
    void ignoreExpectServesABodySentWithoutItsContinue() throws IOException {
        String body = generation("unasked-raw");
        try (RawConnection connection = new RawConnection(vendor.port())) {
            connection.send("POST /v1/images/generations HTTP/1.1\r\nX-Idem-Simulate: ignore_expect\r\n"
                    + "Expect: 100-continue\r\nContent-Length: " + body.length() + "\r\n\r\n");

            // No 100 comes: the first thing on the wire is the final answer to the body sent unasked.
            RawConnection.Response response = connection.send(body).read();

            assertThat(response.status()).isEqualTo(200);
        }
        assertThat(vendor.ledger()).anyMatch(entry -> "unasked-raw".equals(entry.reference()));
    }

    @Test
    void okSendsContinueBeforeReadingTheBody() throws IOException {
        String body = generation("continued-raw");
        try (RawConnection connection = new RawConnection(vendor.port())) {
            connection.send("POST /v1/images/generations HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: "
                    + body.length() + "\r\n\r\n");
            assertThat(connection.readHead().status()).isEqualTo(100);

            RawConnection.Response response = connection.send(body).read();

            assertThat(response.status()).isEqualTo(200);
        }
        assertThat(vendor.ledger()).anyMatch(entry -> "continued-raw".equals(entry.reference()));
    }

    @Test
    void rateLimitingSaysWhenToComeBack() throws IOException {
        try (RawConnection connection = new RawConnection(vendor.port())) {
            RawConnection.Response response = connection
                    .send(post("rate_limited:1", generation("limited")))
                    .read();

            assertThat(response.status()).isEqualTo(429);
            assertThat(response.headers()).containsEntry("retry-after", "1");
        }
    }

    @Test
    void aBare429SaysNothingAboutWhenToComeBack() throws IOException {
        try (RawConnection connection = new RawConnection(vendor.port())) {
            RawConnection.Response response =
                    connection.send(post("http_429", generation("bare"))).read();

            assertThat(response.status()).isEqualTo(429);
            assertThat(response.headers()).doesNotContainKey("retry-after");
        }
    }

    @Test
    void anInvalidBodyIsAVendorStyle400() throws IOException {
        try (RawConnection connection = new RawConnection(vendor.port())) {
            RawConnection.Response notJson =
                    connection.send(post("ok", "{nope")).read();
            RawConnection.Response badSize = connection
                    .send(post("ok", "{\"model\":\"m\",\"prompt\":\"p\",\"size\":\"huge\"}"))
                    .read();

            assertThat(JSON.readTree(notJson.body()).path("error").path("code").asText())
                    .isEqualTo("invalid_json");
            assertThat(JSON.readTree(badSize.body()).path("error").path("code").asText())
                    .isEqualTo("invalid_size");
        }
    }

    @Test
    void aChunkedBodyIsRefusedWithLengthRequired() throws IOException {
        try (RawConnection connection = new RawConnection(vendor.port())) {
            RawConnection.Response response = connection
                    .send(
                            "POST /v1/images/generations HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
                    .read();

            assertThat(response.status()).isEqualTo(411);
        }
    }

    @Test
    void generationsCanBeLookedUpByIdAndByReferenceAndAppearOnTheLedger() throws IOException {
        try (RawConnection connection = new RawConnection(vendor.port())) {
            String id = connection
                    .send(post("ok", generation("look-me-up")))
                    .read()
                    .headers()
                    .get("x-request-id");

            JsonNode byId = JSON.readTree(connection
                    .send("GET /v1/images/generations/" + id + " HTTP/1.1\r\n\r\n")
                    .read()
                    .body());
            JsonNode byReference = JSON.readTree(connection
                    .send("GET /v1/images/generations?reference=look-me-up HTTP/1.1\r\n\r\n")
                    .read()
                    .body());
            JsonNode ledger = JSON.readTree(
                    connection.send("GET /ledger HTTP/1.1\r\n\r\n").read().body());

            assertThat(byId.path("status").asText()).isEqualTo("succeeded");
            assertThat(byId.path("billed").asBoolean()).isTrue();
            assertThat(byId.path("cost_usd").asText()).isEqualTo("0.04");
            assertThat(byId.path("images").size()).isEqualTo(1);
            assertThat(byReference).isEqualTo(byId);
            assertThat(ledger.path("generations").findValuesAsText("id")).contains(id);
        }
    }

    @Test
    void unknownGenerationsAndRoutesAre404() throws IOException {
        try (RawConnection connection = new RawConnection(vendor.port())) {
            assertThat(connection
                            .send("GET /v1/images/generations/gen_x HTTP/1.1\r\n\r\n")
                            .read()
                            .status())
                    .isEqualTo(404);
            assertThat(connection
                            .send("GET /v1/images/generations?reference=never HTTP/1.1\r\n\r\n")
                            .read()
                            .status())
                    .isEqualTo(404);
            assertThat(connection
                            .send("POST /v1/images/generations/gen_x/cancel HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
                            .read()
                            .status())
                    .isEqualTo(404);
            assertThat(connection.send("GET /nowhere HTTP/1.1\r\n\r\n").read().status())
                    .isEqualTo(404);
        }
    }

    @Test
    void resetLedgerEmptiesTheInvoiceButKeepsLookups() throws IOException {
        try (FakeVendorServer own = FakeVendorServer.start(0);
                RawConnection connection = new RawConnection(own.port())) {
            String id = connection
                    .send(post("ok", generation("reset-me")))
                    .read()
                    .headers()
                    .get("x-request-id");
            assertThat(own.ledger()).hasSize(1);

            own.resetLedger();

            assertThat(own.ledger()).isEmpty();
            assertThat(connection
                            .send("GET /v1/images/generations/" + id + " HTTP/1.1\r\n\r\n")
                            .read()
                            .status())
                    .isEqualTo(200);
        }
    }
}
