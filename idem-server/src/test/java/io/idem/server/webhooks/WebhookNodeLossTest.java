package io.idem.server.webhooks;

import static io.idem.server.webhooks.WebhookNodes.ADMIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.postgres.TestDatabases;
import io.idem.server.TestServer;
import io.idem.server.chaos.ChildJvm;
import io.idem.server.http.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A node SIGKILLed while its deliveries are in flight (the receiver holds them): after its claims
 * run out, another node, started afterwards on the same database, sends each again with the same
 * webhook-id and body. Every delivery arrives at least once before the kill and again after it, is
 * marked delivered, and its log counts every attempt.
 */
class WebhookNodeLossTest {
    private static final String SECRET = "webhook-node-loss-secret-0123456789";
    private static final Pattern READY = Pattern.compile("Idem is ready on (http://[0-9.:]+)");
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void deliveriesOfAKilledNodeAreTakenOverWithTheSameIdAndBody() throws IOException {
        try (var flaky = new WebhookNodes.HealthSwitch();
                WebhookReceiver receiver = WebhookReceiver.start()) {
            String db = TestDatabases.freshUrl();
            Map<String, String> env = WebhookNodes.env(db, "doomed", flaky);
            env.put("IDEM_SECRET", SECRET);
            env.put("IDEM_BOOTSTRAP_KEY", ADMIN);
            env.put("IDEM_PORT", "0");
            env.put("IDEM_DATA_DIR", Files.createTempDirectory("idem-doomed").toString());
            env.put("IDEM_BREAKER_FAILURE_THRESHOLD", "1000000");
            // long enough that the kill lands while the sends wait; the claims last three times this
            env.put("IDEM_WEBHOOKS_TIMEOUT_SECONDS", "5");
            List<String> jobs = new ArrayList<>();
            String subscription;
            try (ChildJvm doomed =
                    ChildJvm.start("doomed", List.of("serve"), env, Path.of("target", "webhooks", "doomed.log"))) {
                String url = doomed.awaitLine(READY, Duration.ofSeconds(120));
                JsonNode created = post(url, "/v1/webhooks", """
                        {"url": "%s", "event_types": ["job.succeeded"]}""".formatted(receiver.url("/loss")));
                subscription = created.get("id").asText();
                receiver.expect("/loss", created.get("secret").asText());
                receiver.holdRequests();
                for (int i = 0; i < 3; i++) {
                    jobs.add(post(url, "/v1/jobs", "{\"prompt\": \"doomed " + i + "\"}")
                            .get("id")
                            .asText());
                }
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> receiver.at("/loss").size() >= jobs.size());
                doomed.kill();
            }
            receiver.release();
            int beforeTheKill = receiver.at("/loss").size();

            Map<String, String> survivorEnv = WebhookNodes.env(db, "survivor", flaky);
            survivorEnv.put("IDEM_SECRET", SECRET);
            try (TestServer survivor = TestServer.start(survivorEnv)) {
                await().atMost(Duration.ofSeconds(60))
                        .untilAsserted(() -> assertThat(WebhookNodes.deliveries(survivor, ADMIN, subscription))
                                .hasSize(jobs.size())
                                .allSatisfy(d -> {
                                    assertThat(d.get("status").asText()).isEqualTo("delivered");
                                    assertThat(d.get("attempts").asInt()).isGreaterThanOrEqualTo(2);
                                }));
            }
            var byId = receiver.at("/loss").stream().collect(Collectors.groupingBy(WebhookReceiver.Received::id));
            assertThat(byId).hasSize(jobs.size());
            assertThat(receiver.at("/loss")).hasSizeGreaterThan(beforeTheKill);
            byId.values().forEach(same -> {
                assertThat(same)
                        .hasSizeGreaterThanOrEqualTo(2)
                        .allSatisfy(r -> assertThat(r.signedRight()).isTrue());
                assertThat(same.stream().map(WebhookReceiver.Received::body).distinct())
                        .hasSize(1);
            });
            assertThat(receiver.at("/loss").stream()
                            .map(r -> r.json().at("/data/job_id").asText())
                            .distinct())
                    .containsExactlyInAnyOrderElementsOf(jobs);
        }
    }

    private JsonNode post(String base, String path, String body) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + ADMIN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isBetween(200, 299);
            return Json.MAPPER.readTree(response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
