package io.idem.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.postgres.TestDatabases;
import io.idem.server.TestServer;
import io.idem.server.http.Json;
import io.idem.server.outbound.WebhookSignature;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Alerts from the shared provider event log to Slack, Telegram and a signed webhook (stand-ins,
 * real HTTP), with two nodes on one database: selective (a flap inside the quiet period is no
 * alert), one alert per incident and channel across both nodes, recovery with its duration, budget
 * thresholds at once, and a channel that failed gets the alert when it answers again.
 */
class AlertsTest {
    private static final String BOT_TOKEN = "123456:telegram-bot-token-abcdef";
    private static final String SIGNING = "whsec_"
            + java.util.Base64.getEncoder()
                    .encodeToString("signing-key-0123456789abcdef".getBytes(StandardCharsets.UTF_8));
    private static Receiver slack;
    private static Receiver telegram;
    private static Receiver webhook;
    private static TestServer nodeA;
    private static TestServer nodeB;
    private static String alerts;

    @BeforeAll
    static void start() {
        slack = Receiver.slack();
        telegram = Receiver.telegram(BOT_TOKEN);
        webhook = Receiver.webhook();
        alerts = """
                {"quiet_period_seconds": 2, "channels": [
                  {"type": "slack", "webhook_url": "%s/services/T000/B000/slacksecretpart"},
                  {"type": "telegram", "bot_token": "%s", "chat_id": "-100200300", "base_url": "%s"},
                  {"type": "webhook", "name": "ops", "url": "%s/alerts", "secret": "%s"}]}
                """.formatted(slack.url(), BOT_TOKEN, telegram.url(), webhook.url(), SIGNING);
        String db = TestDatabases.freshUrl();
        nodeA = TestServer.start(Map.of("IDEM_DATABASE_URL", db, "ALERTS_JSON", alerts, "IDEM_WORKER_ID", "node-a"));
        nodeB = TestServer.start(Map.of("IDEM_DATABASE_URL", db, "ALERTS_JSON", alerts, "IDEM_WORKER_ID", "node-b"));
    }

    @AfterAll
    static void stop() {
        nodeB.close();
        nodeA.close();
        slack.close();
        telegram.close();
        webhook.close();
    }

    private static void event(String provider, String type, String detailJson) {
        nodeA.node().database().withConnection(c -> {
            try (var ps = c.prepareStatement(
                    "INSERT INTO provider_events (provider, type, detail, at) VALUES (?, ?, ?::jsonb, now())")) {
                ps.setString(1, provider);
                ps.setString(2, type);
                ps.setString(3, detailJson);
                return ps.executeUpdate();
            }
        });
    }

    private static void breaker(String provider, String to) {
        event(provider, "breaker." + to, "{\"to\": \"" + to + "\", \"reason\": \"http_503\"}");
    }

    @Test
    void aBreakerThatClosesInsideTheQuietPeriodAlertsNobody() throws InterruptedException {
        breaker("flappy", "open");
        breaker("flappy", "closed");
        Thread.sleep(6_000); // the quiet period and two polls of both nodes
        assertThat(slack.mentioning("flappy")).isEmpty();
        assertThat(telegram.mentioning("flappy")).isEmpty();
        assertThat(webhook.mentioning("flappy")).isEmpty();
    }

    @Test
    void anOutageIsOneAlertPerChannelAcrossNodesAndItsRecoveryAnother() throws InterruptedException {
        breaker("downcast", "open");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(slack.mentioning("downcast")).hasSize(1);
            assertThat(telegram.mentioning("downcast")).hasSize(1);
            assertThat(webhook.mentioning("downcast")).hasSize(1);
        });
        breaker("downcast", "half_open");
        breaker("downcast", "open"); // the probe failed: the same incident
        Thread.sleep(5_000);
        assertThat(slack.mentioning("downcast")).hasSize(1);
        breaker("downcast", "closed");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(slack.mentioning("downcast recovered after")).hasSize(1);
            assertThat(telegram.mentioning("downcast recovered after")).hasSize(1);
            assertThat(webhook.mentioning("downcast recovered after")).hasSize(1);
        });
        Thread.sleep(4_000);
        assertThat(slack.mentioning("downcast")).hasSize(2);
        assertThat(telegram.mentioning("downcast")).hasSize(2);
        assertThat(webhook.mentioning("downcast")).hasSize(2);
    }

    @Test
    void eachChannelGetsItsOwnShapeAndTheWebhookIsSigned() {
        event("spendy", "budget.warning", "{\"spent_usd\": 5.5, \"budget_usd\": 10}");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(slack.mentioning("spendy")).hasSize(1);
            assertThat(telegram.mentioning("spendy")).hasSize(1);
            assertThat(webhook.mentioning("spendy")).hasSize(1);
        });
        var toSlack = slack.mentioning("spendy").getFirst();
        assertThat(toSlack.path()).isEqualTo("/services/T000/B000/slacksecretpart");
        assertThat(json(toSlack.body()).get("text").asText())
                .isEqualTo("[Idem] provider spendy passed half its daily budget: $5.5 of $10");
        var toTelegram = telegram.mentioning("spendy").getFirst();
        assertThat(toTelegram.path()).isEqualTo("/bot" + BOT_TOKEN + "/sendMessage");
        assertThat(json(toTelegram.body()).get("chat_id").asText()).isEqualTo("-100200300");
        var toWebhook = webhook.mentioning("spendy").getFirst();
        JsonNode body = json(toWebhook.body());
        assertThat(body.get("kind").asText()).isEqualTo("budget.warning");
        assertThat(body.get("provider").asText()).isEqualTo("spendy");
        String id = toWebhook.header("webhook-id");
        String timestamp = toWebhook.header("webhook-timestamp");
        assertThat(id).isEqualTo(body.get("id").asText());
        assertThat(toWebhook.header("webhook-signature"))
                .isEqualTo("v1,"
                        + new WebhookSignature(SIGNING, java.time.InstantSource.system())
                                .sign(id, timestamp, toWebhook.body().getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aChannelThatFailedGetsTheAlertWhenItAnswersAgain() {
        slack.failNext(3);
        event("retried", "budget.exhausted", "{\"spent_usd\": 10, \"budget_usd\": 10}");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(slack.mentioning("retried")).hasSizeGreaterThanOrEqualTo(4));
        assertThat(telegram.mentioning("retried")).hasSize(1);
        assertThat(webhook.mentioning("retried")).hasSize(1);
        Duration settle = Duration.ofSeconds(4);
        await().pollDelay(settle).atMost(settle.plusSeconds(2)).until(() -> true);
        assertThat(slack.mentioning("retried")).hasSize(4); // three refused, one taken, no more
    }

    @Test
    void channelSecretsStayOutOfTheDescribedConfiguration() {
        var config =
                new io.idem.server.config.ConfigLoader(Map.of("ALERTS_JSON", alerts)).load(java.util.Optional.empty());
        String described = config.describe();
        assertThat(described).contains("alerts=[slack[slack], telegram[telegram], ops[webhook]]");
        assertThat(described)
                .doesNotContain(BOT_TOKEN)
                .doesNotContain("slacksecretpart")
                .doesNotContain(SIGNING);
        // what the node's redactor removes from every log line and vendor text
        assertThat(config.secretValues().values()).contains(BOT_TOKEN, SIGNING);
        assertThat(String.join(" ", config.secretValues().values())).contains("slacksecretpart");
    }

    private static JsonNode json(String body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (java.io.IOException e) {
            throw new AssertionError(body, e);
        }
    }
}
