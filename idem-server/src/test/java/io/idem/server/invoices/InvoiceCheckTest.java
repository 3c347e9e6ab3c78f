package io.idem.server.invoices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import io.idem.server.alerts.Receiver;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The invoice check end to end against the fake vendor's own usage report: a day Idem's audit fully
 * captures, then a charge Idem never made (a call straight to the vendor), which is unmatched, lowers
 * the capture rate and alerts as {@code invoice.drift}.
 */
class InvoiceCheckTest {
    private static final String TODAY = LocalDate.now(ZoneOffset.UTC).toString();
    private static Receiver slack;
    private static TestServer node;

    @BeforeAll
    static void start() {
        slack = Receiver.slack();
        String alerts = """
                {"quiet_period_seconds": 1,
                 "channels": [{"type": "slack", "webhook_url": "%s/services/T000/B000/invoices"}]}
                """.formatted(slack.url());
        node = TestServer.start(Map.of("ALERTS_JSON", alerts));
    }

    @AfterAll
    static void stop() {
        node.close();
        slack.close();
    }

    private static TestServer.Reply check(String key, String body) {
        return node.post("/v1/admin/invoice-checks", key, body);
    }

    private static void jobOnPrimary(String prompt) {
        var reply = node.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"" + prompt + "\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
        String id = reply.body().get("id").asText();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> node.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                        .body()
                        .get("state")
                        .asText()
                        .equals("succeeded"));
    }

    @Test
    void aDayTheAuditCapturesFullyAndThenACallIdemNeverMade() throws Exception {
        jobOnPrimary("invoice one");
        jobOnPrimary("invoice two");
        var chat = node.post("/v1/chat/completions", TestServer.ADMIN_KEY, """
                {"model": "fake-chat-a", "messages": [{"role": "user", "content": "count me on the invoice"}]}""");
        assertThat(chat.status()).as(chat.raw()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            JsonNode full = check(TestServer.ADMIN_KEY, "{\"provider\": \"primary\", \"date\": \"" + TODAY + "\"}")
                    .body();
            assertThat(full.get("capture_rate").asText()).isEqualTo("1.0000");
            assertThat(new BigDecimal(full.get("audit_usd").asText()))
                    .isEqualByComparingTo(new BigDecimal(full.get("vendor_usd").asText()));
        });
        JsonNode full = check(TestServer.ADMIN_KEY, "{\"provider\": \"primary\", \"date\": \"" + TODAY + "\"}")
                .body();
        assertThat(full.get("itemized").asBoolean()).isTrue();
        assertThat(full.get("unmatched_count").asInt()).isZero();

        String stray = chargeStraightAtTheVendor();
        JsonNode drifted = check(TestServer.ADMIN_KEY, "{\"provider\": \"primary\", \"date\": \"" + TODAY + "\"}")
                .body();
        assertThat(new BigDecimal(drifted.get("capture_rate").asText())).isLessThan(BigDecimal.ONE);
        assertThat(drifted.get("unmatched_count").asInt()).isEqualTo(1);
        assertThat(drifted.get("unmatched").get(0).get("request_id").asText()).isEqualTo(stray);
        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() ->
                        assertThat(slack.mentioning("invoice for " + TODAY)).hasSize(1));
        assertThat(slack.mentioning("invoice for " + TODAY).getFirst().body())
                .contains("primary", "1 charges Idem has no attempt for");

        assertThat(node.get("/metrics", TestServer.ADMIN_KEY).raw())
                .as("the gauge reads the latest check (cached for a minute, so the first one)")
                .contains("idem_invoice_capture_ratio{provider=\"primary\"}");

        var listed = node.get("/v1/admin/invoice-checks?provider=primary", TestServer.ADMIN_KEY);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body().get("data").get(0).get("unmatched_count").asInt())
                .isEqualTo(1);
    }

    @Test
    void aProviderThatBilledNothingIsFullyCaptured() {
        JsonNode quiet = check(TestServer.ADMIN_KEY, "{\"provider\": \"backup\", \"date\": \"2026-01-01\"}")
                .body();
        assertThat(quiet.get("audit_usd").asText()).isIn("0", "0.000000000");
        assertThat(quiet.get("capture_rate").asText()).isEqualTo("1");
    }

    @Test
    void badRequestsAreRefusedAndOnlyAdminsMayCheck() {
        assertThat(check(TestServer.ADMIN_KEY, "{\"provider\": \"nobody\", \"date\": \"" + TODAY + "\"}")
                        .body()
                        .at("/error/code")
                        .asText())
                .isEqualTo("invalid_provider");
        assertThat(check(TestServer.ADMIN_KEY, "{\"provider\": \"primary\", \"date\": \"yesterday\"}")
                        .body()
                        .at("/error/code")
                        .asText())
                .isEqualTo("invalid_date");
        assertThat(check(TestServer.ADMIN_KEY, "{\"provider\": \"primary\", \"date\": \"2999-01-01\"}")
                        .status())
                .isEqualTo(400);
        assertThat(check(TestServer.ADMIN_KEY, "{\"provider\": \"primary\", \"day\": \"" + TODAY + "\"}")
                        .body()
                        .at("/error/code")
                        .asText())
                .isEqualTo("unknown_field");
        String client = node.newKey("invoices-client", "client");
        assertThat(check(client, "{\"provider\": \"primary\", \"date\": \"" + TODAY + "\"}")
                        .status())
                .isEqualTo(403);
        assertThat(node.get("/v1/admin/invoice-checks", client).status()).isEqualTo(403);
    }

    /** A generation billed to the account without going through Idem: the request id the vendor gave it. */
    private static String chargeStraightAtTheVendor() throws Exception {
        URI vendor = node.node().fakes().get("primary").baseUrl();
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(vendor.resolve("/v1/images/generations"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("""
                                        {"model": "fake-image-v1", "prompt": "behind Idem's back", "size": "1024x1024",
                                         "n": 1, "reference": "stray-1"}"""))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isBetween(200, 202);
        return io.idem.server.http.Json.MAPPER
                .readTree(response.body())
                .get("id")
                .asText();
    }
}
