package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.postgres.TestDatabases;
import io.idem.providers.fake.FakeVendorServer;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Provider budgets are hard caps for jobs, through real nodes, real PostgreSQL and the fake vendor
 * over HTTP: concurrent jobs never spend past the budget (measured from the attempt audit), calls
 * that bill nothing never warn, and two nodes on one database announce each threshold once.
 */
class HardBudgetsTest {

    /** Both at the fake vendor's own price, so what Idem expects is what the vendor bills. */
    private static String providers(FakeVendorServer a, FakeVendorServer b, String budget) {
        return """
                {"providers": {
                   "primary": {"adapter": "fake", "base_url": "%s", "cost_per_image_usd": "0.04", "daily_budget_usd": "%s"},
                   "backup": {"adapter": "fake", "base_url": "%s", "cost_per_image_usd": "0.04"}}}
                """.formatted(a.baseUrl(), budget, b.baseUrl());
    }

    private static String submit(TestServer node, String body) {
        var reply = node.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
        return reply.body().get("id").asText();
    }

    private static void awaitEnded(TestServer node, List<String> ids) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> ids.stream()
                        .allMatch(id -> node.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                                .body()
                                .get("state")
                                .asText()
                                .matches("succeeded|failed|manual_review")));
    }

    private static List<String> parallelJobs(TestServer node, int count, String body) {
        return IntStream.range(0, count)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> submit(node, body)))
                .toList()
                .stream()
                .map(CompletableFuture::join)
                .toList();
    }

    private static BigDecimal audited(TestServer node, String provider) {
        return node.node().database().withConnection(c -> {
            try (var ps = c.prepareStatement("""
                    SELECT COALESCE(sum(cost_usd), 0) FROM provider_attempts
                     WHERE provider = ? AND billable IN ('yes', 'unknown')
                    """)) {
                ps.setString(1, provider);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getBigDecimal(1);
                }
            }
        });
    }

    private static List<String> budgetEvents(TestServer node) {
        return node.node().database().withConnection(c -> {
            try (var rs = c.createStatement()
                    .executeQuery("SELECT type FROM provider_events WHERE provider = 'primary' ORDER BY id")) {
                List<String> types = new java.util.ArrayList<>();
                while (rs.next()) {
                    types.add(rs.getString(1));
                }
                return types;
            }
        });
    }

    @Test
    void twentyConcurrentJobsNeverSpendPastTheProvidersBudget() {
        try (var a = FakeVendorServer.start(0);
                var b = FakeVendorServer.start(0);
                TestServer node = TestServer.start(Map.of("PROVIDERS_JSON", providers(a, b, "0.20")))) {
            // slow calls keep many holds in flight at once
            List<String> ids = parallelJobs(node, 20, "{\"prompt\": \"x\", \"simulate\": {\"primary\": \"slow:300\"}}");
            awaitEnded(node, ids);

            assertThat(audited(node, "primary")).isLessThanOrEqualTo(new BigDecimal("0.20"));
            assertThat(a.ledger()).hasSize(5);
            assertThat(b.ledger()).hasSize(15);
            assertThat(budgetEvents(node)).containsExactly("budget.warning", "budget.exhausted");
        }
    }

    @Test
    void callsThatBillNothingNeverFireAWarning() {
        try (var a = FakeVendorServer.start(0);
                var b = FakeVendorServer.start(0);
                TestServer node = TestServer.start(Map.of("PROVIDERS_JSON", providers(a, b, "0.08")))) {
            List<String> ids = parallelJobs(node, 6, "{\"prompt\": \"x\", \"simulate\": {\"primary\": \"http_503\"}}");
            awaitEnded(node, ids);

            assertThat(audited(node, "primary")).isEqualByComparingTo("0");
            assertThat(budgetEvents(node)).isEmpty();
            String billed = submit(node, "{\"prompt\": \"x\"}");
            awaitEnded(node, List.of(billed));
            JsonNode job = node.get("/v1/jobs/" + billed, TestServer.ADMIN_KEY).body();
            assertThat(job.get("result").get("provider").asText()).isEqualTo("primary");
            assertThat(budgetEvents(node)).containsExactly("budget.warning");
        }
    }

    @Test
    void twoNodesOnOneDatabaseAnnounceEachThresholdOnceAndShareTheBudget() {
        String db = TestDatabases.freshUrl();
        try (var a = FakeVendorServer.start(0);
                var b = FakeVendorServer.start(0);
                TestServer one = TestServer.start(Map.of(
                        "IDEM_DATABASE_URL", db, "PROVIDERS_JSON", providers(a, b, "0.40"), "IDEM_WORKER_ID", "one"));
                TestServer two = TestServer.start(Map.of(
                        "IDEM_DATABASE_URL", db, "PROVIDERS_JSON", providers(a, b, "0.40"), "IDEM_WORKER_ID", "two"))) {
            String body = "{\"prompt\": \"x\", \"simulate\": {\"primary\": \"slow:100\"}}";
            var fromOne = CompletableFuture.supplyAsync(() -> parallelJobs(one, 8, body));
            var fromTwo = CompletableFuture.supplyAsync(() -> parallelJobs(two, 8, body));
            List<String> ids = new java.util.ArrayList<>(fromOne.join());
            ids.addAll(fromTwo.join());
            awaitEnded(one, ids);

            assertThat(audited(one, "primary")).isEqualByComparingTo("0.40");
            assertThat(a.ledger()).hasSize(10);
            assertThat(budgetEvents(one)).containsExactly("budget.warning", "budget.exhausted");
        }
    }
}
