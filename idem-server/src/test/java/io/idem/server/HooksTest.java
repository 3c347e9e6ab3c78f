package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.server.auth.ServerSecret;
import io.idem.server.hooks.WebhookLinks;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Vendor callbacks resolve unconfirmed attempts; forged and replayed deliveries are refused. */
class HooksTest {

    @Test
    void aGoodDeliveryResolvesTheParkedAttemptAndForgedOrReplayedOnesAreRefused() {
        try (TestServer server = TestServer.start(Map.of("IDEM_PUBLIC_URL", "https://idem.example.com"))) {
            String id = ReviewTest.park(server, "timeout");
            String attempt =
                    ReviewTest.job(server, id).get("attempts").get(0).get("id").asText();
            var links = new WebhookLinks(
                    Optional.of(URI.create("https://idem.example.com")),
                    ServerSecret.of("test-secret-0123456789abcdef"));
            URI signed = links.forAttempt("primary", UUID.fromString(attempt)).orElseThrow();
            String path = signed.getRawPath() + "?" + signed.getRawQuery();

            var forged = server.post(path.replaceAll("sig=[^&]+", "sig=forged"), null, "{\"status\": \"OK\"}");
            assertThat(forged.status()).isEqualTo(401);
            var otherAttempt =
                    server.post(path.replace(attempt, UUID.randomUUID().toString()), null, "{}");
            assertThat(otherAttempt.status()).isEqualTo(401);

            var good = server.post(path, null, "{\"status\": \"OK\"}");
            assertThat(good.status()).as(good.raw()).isEqualTo(200);
            // The delivery reconciles at once, unless the periodic sweep holds the job at that moment
            // ("reconcile": "not_held"); then the sweep's own look-up resolves it.
            await().atMost(Duration.ofSeconds(15))
                    .untilAsserted(
                            () -> assertThat(ReviewTest.state(server, id)).isEqualTo("succeeded"));

            var replay = server.post(path, null, "{\"status\": \"OK\"}");
            assertThat(replay.status()).isEqualTo(409);
            assertThat(replay.body().get("error").get("code").asText()).isEqualTo("callback_replayed");
        }
    }
}
