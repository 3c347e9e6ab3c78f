package io.idem.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The threshold rules end to end on a node with real calls and a Slack stand-in: a provider's error
 * rate, a job parked in the review queue (its wait and the money at risk), and the recovery once
 * an operator decides it.
 */
class ThresholdAlertsTest {
    private static Receiver slack;
    private static TestServer node;

    @BeforeAll
    static void start() {
        slack = Receiver.slack();
        String alerts = """
                {"quiet_period_seconds": 1,
                 "channels": [{"type": "slack", "webhook_url": "%s/services/T000/B000/thresholds"}],
                 "rules": {"evaluate_every_seconds": 1, "error_rate": {"min_calls": 3},
                           "fallback_share": false, "cost_drift": false,
                           "money_at_risk_usd": 0.01, "review_age_seconds": 2}}
                """.formatted(slack.url());
        // reconcile waits, so the parked job stays parked until the operator decides
        node = TestServer.start(Map.of("ALERTS_JSON", alerts, "RECONCILE_INTERVAL_SECONDS", "3600"));
    }

    @AfterAll
    static void stop() {
        node.close();
        slack.close();
    }

    private static String submit(String body) {
        var reply = node.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
        return reply.body().get("id").asText();
    }

    private static JsonNode settled(String id) {
        JsonNode[] job = new JsonNode[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            job[0] = node.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
            return !job[0].get("state").asText().matches("queued|running");
        });
        return job[0];
    }

    @Test
    void aFailingProviderAndAParkedJobAlertAndTheOperatorsDecisionRecovers() {
        for (int i = 0; i < 3; i++) {
            settled(submit("{\"prompt\": \"fails over " + i + "\", \"simulate\": {\"primary\": \"http_503\"}}"));
        }
        String parked = submit("{\"prompt\": \"lost answer\", \"simulate\": {\"primary\": \"disconnect\"}}");
        assertThat(settled(parked).get("state").asText()).isEqualTo("manual_review");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(slack.mentioning("provider primary failed")).hasSize(1);
            assertThat(slack.mentioning("in the review queue")).hasSize(1);
            assertThat(slack.mentioning("is at risk")).hasSize(1);
        });
        assertThat(slack.mentioning("provider primary failed").getFirst().body())
                .contains("of its calls (4 of 4)");

        var decided = node.post(
                "/v1/jobs/" + parked + "/resolve",
                TestServer.ADMIN_KEY,
                "{\"action\": \"fail\", \"note\": \"vendor says it never ran\"}");
        assertThat(decided.status()).as(decided.raw()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(slack.mentioning("no job waits too long in the review queue"))
                        .hasSize(1));
        assertThat(slack.mentioning("in the review queue"))
                .as("one alert for the incident, one for its end")
                .hasSize(2);
    }
}
