package io.idem.server.chat;

import static io.idem.server.chat.ChatCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.providers.fake.ChatLedgerEntry;
import io.idem.providers.fake.FakeVendorServer;
import io.idem.server.TestServer;
import java.math.BigDecimal;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every chat attempt lands in the audit, and what the audit says was billed is the vendor's invoice. */
class ChatAuditTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static BigDecimal invoice(FakeVendorServer vendor) {
        return vendor.chatLedger().stream().map(ChatLedgerEntry::costUsd).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    @Test
    void concurrentCallsAreAllAuditedAndTheBilledSumIsTheInvoice() {
        server.node().fakes().values().forEach(FakeVendorServer::resetLedger);
        String key = ChatCalls.keyWith(server, "auditor", "{}");
        String[] modes = {"ok", "http_503", "http_429", "refuse", "malformed"};
        var calls = IntStream.range(0, 40)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> call(
                        server,
                        key,
                        "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"redundancy\":{\"retries\":0},\"stream\":"
                                + (i % 2 == 0) + ",\"simulate\":{\"fake-chat-a\":\"" + modes[i % modes.length]
                                + "\"}")))
                .toList();
        assertThat(calls).allSatisfy(c -> assertThat(c.join().status()).isEqualTo(200));
        ChatCalls.awaitAudit(server);
        long attempts = ChatCalls.query(
                server,
                "SELECT count(*) FROM chat_attempts a JOIN api_keys k ON k.id = a.api_key_id WHERE k.owner = 'auditor'",
                Long.class);
        assertThat(attempts).as("8 served first, 32 failed over").isEqualTo(8 + 32 * 2);
        long failovers = ChatCalls.query(
                server,
                "SELECT count(*) FROM audit_events e WHERE e.type = 'api:model_failover' AND e.subject IN "
                        + "(SELECT call_id::text FROM chat_attempts a JOIN api_keys k ON k.id = a.api_key_id WHERE k.owner = 'auditor')",
                Long.class);
        assertThat(failovers).isEqualTo(32);
        for (String provider : new String[] {"primary", "backup"}) {
            BigDecimal billed = ChatCalls.sum(
                    server,
                    "SELECT sum(a.cost_usd) FROM chat_attempts a JOIN api_keys k ON k.id = a.api_key_id "
                            + "WHERE k.owner = 'auditor' AND a.provider = ? AND a.billable = 'yes'",
                    provider);
            assertThat(billed)
                    .as(provider)
                    .isEqualByComparingTo(invoice(server.node().fakes().get(provider)));
        }
        Long withTokens = ChatCalls.query(
                server,
                "SELECT count(*) FROM chat_attempts WHERE outcome = 'served' AND prompt_tokens > 0 AND completion_tokens > 0",
                Long.class);
        assertThat(withTokens).isPositive();
    }

    @Test
    void aKeysChatSpendCountsTowardsItsBudget() {
        String key = ChatCalls.keyWith(server, "spender", "{}");
        assertThat(call(server, key, "\"model\":\"fake-chat-a\"", Map.of()).status())
                .isEqualTo(200);
        ChatCalls.awaitAudit(server);
        var spend = new io.idem.postgres.PgSpendStore(server.node().database());
        String id = ChatCalls.query(server, "SELECT id::text FROM api_keys WHERE owner = 'spender'", String.class);
        assertThat(spend.keySpendSince(java.util.UUID.fromString(id), java.time.Instant.EPOCH))
                .isPositive();
        var today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
        assertThat(spend.providerSpend("primary", today).settledUsd()).isPositive();
    }
}
