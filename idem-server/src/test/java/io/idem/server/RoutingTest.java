package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.breaker.BreakerState;
import io.idem.postgres.TestDatabases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Breakers shared across nodes and provider budgets, through real nodes on one database. */
class RoutingTest {

    private static JsonNode settle(TestServer node, String body) {
        String id = node.post("/v1/jobs", TestServer.ADMIN_KEY, body)
                .body()
                .get("id")
                .asText();
        JsonNode[] job = new JsonNode[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            job[0] = node.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
            return job[0].get("state").asText().matches("succeeded|failed|manual_review");
        });
        return job[0];
    }

    private static List<String> providersCalled(JsonNode job) {
        List<String> called = new ArrayList<>();
        job.get("attempts").forEach(a -> called.add(a.get("provider").asText()));
        return called;
    }

    @Test
    void aBreakerOpenedByNodeAStopsNodeBsCallsWithinOneNotification() {
        String db = TestDatabases.freshUrl();
        try (TestServer a = TestServer.start(Map.of(
                        "IDEM_DATABASE_URL", db, "IDEM_BREAKER_FAILURE_THRESHOLD", "3", "IDEM_WORKER_ID", "node-a"));
                TestServer b = TestServer.start(Map.of(
                        "IDEM_DATABASE_URL",
                        db,
                        "IDEM_BREAKER_FAILURE_THRESHOLD",
                        "3",
                        "IDEM_WORKER_ID",
                        "node-b",
                        "IDEM_ROLE",
                        "api"))) {
            for (int i = 0; i < 3; i++) {
                settle(a, "{\"prompt\": \"x\", \"simulate\": {\"primary\": \"http_503\"}}");
            }
            assertThat(a.node().breakers().snapshot("primary").state()).isEqualTo(BreakerState.OPEN);
            await().atMost(Duration.ofSeconds(2))
                    .until(() -> b.node().breakers().snapshot("primary").state() == BreakerState.OPEN);

            JsonNode skipped = settle(a, "{\"prompt\": \"x\"}");
            assertThat(providersCalled(skipped)).containsExactly("backup");
            var events = a.get("/v1/jobs/" + skipped.get("id").asText() + "/events", TestServer.ADMIN_KEY)
                    .body()
                    .get("data");
            assertThat(events).anySatisfy(e -> {
                assertThat(e.get("type").asText()).isEqualTo("candidate.skipped");
                assertThat(e.get("detail").get("reason").asText()).isEqualTo("breaker_open");
            });
        }
    }

    @Test
    void rejectionsNeverOpenABreaker() {
        try (TestServer a = TestServer.start(Map.of("IDEM_BREAKER_FAILURE_THRESHOLD", "2"))) {
            for (int i = 0; i < 4; i++) {
                settle(a, "{\"prompt\": \"x\", \"simulate\": {\"primary\": \"user_error\"}}");
                settle(a, "{\"prompt\": \"x\", \"simulate\": {\"primary\": \"policy\"}}");
            }
            assertThat(a.node().breakers().snapshot("primary").state()).isEqualTo(BreakerState.CLOSED);
        }
    }

    @Test
    void aProviderAtItsDailyBudgetIsSkippedAfterAWarningAtHalfAndNeverOverspent() {
        try (var vendorA = io.idem.providers.fake.FakeVendorServer.start(0);
                var vendorB = io.idem.providers.fake.FakeVendorServer.start(0);
                TestServer node = TestServer.start(
                        Map.of("PROVIDERS_JSON", """
                        {"providers": {
                           "primary": {"adapter": "fake", "base_url": "%s", "cost_per_image_usd": "0.04", "daily_budget_usd": "0.08"},
                           "backup": {"adapter": "fake", "base_url": "%s", "cost_per_image_usd": "0.04"}}}
                        """.formatted(vendorA.baseUrl(), vendorB.baseUrl())))) {
            for (int i = 0; i < 2; i++) {
                assertThat(providersCalled(settle(node, "{\"prompt\": \"job " + i + "\"}")))
                        .containsExactly("primary");
            }
            // no refresh window to wait out: the hold of the third job finds no room at once
            JsonNode over = settle(node, "{\"prompt\": \"over budget\"}");
            assertThat(providersCalled(over)).containsExactly("backup");
            assertThat(providerEvents(node)).containsExactly("budget.warning", "budget.exhausted");
            assertThat(vendorA.ledger()).hasSize(2);
        }
    }

    private static List<String> providerEvents(TestServer node) {
        return node.node().database().withConnection(c -> {
            List<String> types = new ArrayList<>();
            try (var rs = c.createStatement()
                    .executeQuery("SELECT type FROM provider_events WHERE provider = 'primary' ORDER BY id")) {
                while (rs.next()) {
                    types.add(rs.getString(1));
                }
            }
            return types;
        });
    }
}
