package io.idem.server.chat;

import static io.idem.server.chat.ChatCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.providers.fake.FakeVendorServer;
import io.idem.server.TestServer;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Chat under hard budgets and a per-call cost ceiling, with the fake vendor over HTTP and real
 * PostgreSQL: concurrent calls never spend past the provider's daily budget (measured from the
 * chat audit), and {@code max_cost_usd} skips a model that would pass it.
 */
class ChatBudgetTest {
    private static FakeVendorServer a;
    private static FakeVendorServer b;
    private static TestServer server;
    private static final String ADMIN = TestServer.ADMIN_KEY;

    @BeforeAll
    static void start() {
        a = FakeVendorServer.start(0);
        b = FakeVendorServer.start(0);
        // "hi there" with max_tokens 8: pricey expects (2 + 8) tokens at 1000 USD per million = 0.01
        server = TestServer.start(Map.of("PROVIDERS_JSON", """
                {"providers": {
                   "primary": {"adapter": "fake", "base_url": "%s", "daily_budget_usd": "0.05",
                               "chat_models": {"pricey": {"model": "pricey", "input_usd_per_1m": "1000",
                                                          "output_usd_per_1m": "1000"}}},
                   "backup": {"adapter": "fake", "base_url": "%s",
                              "chat_models": {"cheap": {"model": "cheap", "input_usd_per_1m": "1",
                                                        "output_usd_per_1m": "1"}}}}}
                """.formatted(a.baseUrl(), b.baseUrl())));
    }

    @AfterAll
    static void stop() {
        server.close();
        a.close();
        b.close();
    }

    @Test
    void twentyConcurrentCallsNeverSpendPastTheProvidersDailyBudget() {
        List<TestServer.Reply> replies = IntStream.range(0, 20)
                .mapToObj(i -> CompletableFuture.supplyAsync(
                        () -> call(server, ADMIN, "\"model\":\"pricey\",\"max_tokens\":8")))
                .toList()
                .stream()
                .map(CompletableFuture::join)
                .toList();
        ChatCalls.awaitAudit(server);

        long served = replies.stream().filter(r -> r.status() == 200).count();
        BigDecimal audited = ChatCalls.sum(
                server,
                "SELECT COALESCE(sum(cost_usd), 0) FROM chat_attempts WHERE provider = ? AND billable IN ('yes', 'unknown')",
                "primary");
        assertThat(served).isEqualTo(5);
        assertThat(audited).isLessThanOrEqualTo(new BigDecimal("0.05"));
        assertThat(replies)
                .filteredOn(r -> r.status() != 200)
                .allSatisfy(r -> assertThat(
                                r.body().at("/error/attempts/0/error_code").asText())
                        .isEqualTo("budget_exhausted"));
    }

    @Test
    void aModelThatWouldPassTheCallsCeilingIsSkippedAndTheReportShowsTheSpend() {
        var reply = call(server, ADMIN, "\"models\":[\"pricey\",\"cheap\"],\"max_tokens\":8,\"max_cost_usd\":0.001");

        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().at("/idem/served_model").asText()).isEqualTo("cheap");
        assertThat(reply.body().at("/idem/failover/attempts/0/outcome").asText())
                .isEqualTo("skipped");
        assertThat(reply.body().at("/idem/failover/attempts/0/error_code").asText())
                .isEqualTo("over_max_cost");
        assertThat(new BigDecimal(reply.body().at("/idem/spent_usd").asText())).isEqualByComparingTo("0.000009");
    }

    @Test
    void aBadCeilingIsRefusedWith400AndNoModelIsCalled() {
        int before = a.chatLedger().size() + b.chatLedger().size();
        for (String bad : List.of("0", "-1", "\"abc\"", "1000001", "0.0000001", "true", "{}")) {
            var reply = call(server, ADMIN, "\"model\":\"cheap\",\"max_cost_usd\":" + bad);
            assertThat(reply.status()).as(bad).isEqualTo(400);
            assertThat(reply.body().at("/error/code").asText()).isEqualTo("invalid_max_cost_usd");
        }
        assertThat(a.chatLedger().size() + b.chatLedger().size()).isEqualTo(before);
    }
}
