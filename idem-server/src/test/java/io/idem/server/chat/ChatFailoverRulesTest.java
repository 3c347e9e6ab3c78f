package io.idem.server.chat;

import static io.idem.server.chat.ChatCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.TestServer;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every {@code redundancy.on} trigger and every non-trigger, and the 429-versus-502 rule, against
 * the real fake vendors over HTTP.
 */
class ChatFailoverRulesTest {
    private static TestServer server;
    private static final String ADMIN = TestServer.ADMIN_KEY;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String chain(String mode, String on) {
        return "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"simulate\":{\"fake-chat-a\":\"" + mode + "\"},"
                + "\"redundancy\":{\"timeout_ms\":1000,\"retries\":0,\"on\":" + on + "}";
    }

    @ParameterizedTest(name = "{0} ({1}) fails over when on names it")
    @CsvSource({
        "timeout, timeout, unconfirmed",
        "rate_limit, http_429, unavailable",
        "server_error, http_503, unavailable",
        "server_error, malformed, unavailable",
        "server_error, auth, rejected",
        "connection_error, refuse, unavailable",
        "connection_error, disconnect, unconfirmed"
    })
    void aTriggerInOnFailsOver(String trigger, String mode, String outcome) {
        var reply = call(server, ADMIN, chain(mode, "[\"" + trigger + "\"]"));
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().at("/idem/served_model").asText()).isEqualTo("fake-chat-b");
        var first = reply.body().at("/idem/failover/attempts/0");
        assertThat(first.get("outcome").asText()).isEqualTo(outcome);
        assertThat(first.get("reason").asText()).isEqualTo(trigger);
    }

    @ParameterizedTest(name = "{0} ({1}) stops when on leaves it out")
    @CsvSource({
        "timeout, timeout, 502",
        "rate_limit, http_429, 429",
        "server_error, http_503, 502",
        "connection_error, refuse, 502"
    })
    void aTriggerOutsideOnStops(String trigger, String mode, int status) {
        String others = switch (trigger) {
            case "timeout" -> "[\"rate_limit\",\"server_error\",\"connection_error\"]";
            case "rate_limit" -> "[\"timeout\",\"server_error\",\"connection_error\"]";
            case "server_error" -> "[\"timeout\",\"rate_limit\",\"connection_error\"]";
            default -> "[\"timeout\",\"rate_limit\",\"server_error\"]";
        };
        var reply = call(server, ADMIN, chain(mode, others));
        assertThat(reply.status()).as(reply.raw()).isEqualTo(status);
        assertThat(reply.body().at("/error/code").asText()).isEqualTo("all_models_failed");
        assertThat(reply.body().at("/error/attempts")).hasSize(1);
    }

    @ParameterizedTest(name = "{0} never fails over")
    @CsvSource({"policy, content_policy_violation", "user_error, invalid_value"})
    void aRejectionOfTheRequestNeverFailsOver(String mode, String code) {
        var reply =
                call(server, ADMIN, chain(mode, "[\"timeout\",\"rate_limit\",\"server_error\",\"connection_error\"]"));
        assertThat(reply.status()).as(reply.raw()).isEqualTo(400);
        assertThat(reply.body().at("/error/code").asText()).isEqualTo(code);
        assertThat(reply.body().at("/error/attempts")).hasSize(1);
    }

    @Test
    void theGatewaysOwnBudgetBlockIsA429BeforeAnyModelIsCalled() {
        String key = ChatCalls.keyWith(server, "tight", "{\"daily_budget_usd\": \"0.00001\"}");
        // max_tokens keeps the first call's expected cost within the budget: budgets are hard caps
        assertThat(call(server, key, "\"model\":\"fake-chat-a\",\"max_tokens\":3")
                        .status())
                .isEqualTo(200);
        ChatCalls.awaitAudit(server);
        var blocked = call(server, key, "\"models\":[\"fake-chat-a\",\"fake-chat-b\"]");
        assertThat(blocked.status()).as(blocked.raw()).isEqualTo(429);
        assertThat(blocked.body().at("/error/code").asText()).isEqualTo("budget_exceeded");
        ChatCalls.awaitAudit(server);
        BigDecimal attempts = ChatCalls.sum(
                server,
                "SELECT count(*)::numeric FROM chat_attempts a JOIN api_keys k ON k.id = a.api_key_id WHERE k.owner = ?",
                "tight");
        assertThat(attempts).isEqualByComparingTo("1");
    }

    @Test
    void everyModelRateLimitedIsA429WithRetryAfter() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"redundancy\":{\"retries\":0},"
                        + "\"simulate\":{\"fake-chat-a\":\"http_429\",\"fake-chat-b\":\"http_429\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(429);
        assertThat(reply.body().at("/error/code").asText()).isEqualTo("all_models_failed");
        assertThat(reply.body().at("/error/type").asText()).isEqualTo("rate_limit_error");
        assertThat(reply.header("Retry-After")).isNotNull();
        assertThat(reply.body().at("/error/attempts")).hasSize(2);
        assertThat(reply.header("Idem-Attempts")).contains("status=429");
    }

    @Test
    void aMixOfFailuresIsA502ListingEveryAttempt() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"redundancy\":{\"retries\":0},"
                        + "\"simulate\":{\"fake-chat-a\":\"http_429\",\"fake-chat-b\":\"http_503\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(502);
        assertThat(reply.body().at("/error/code").asText()).isEqualTo("all_models_failed");
        assertThat(reply.body().at("/error/attempts"))
                .extracting(a -> a.get("status").asInt())
                .containsExactly(429, 503);
    }

    @Test
    void aSingleModelThatFailsIsA502WithItsOneAttempt() {
        var reply = call(
                server,
                ADMIN,
                "\"model\":\"fake-chat-a\",\"redundancy\":{\"retries\":0},\"simulate\":{\"fake-chat-a\":\"http_503\"}");
        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.body().at("/error/attempts")).hasSize(1);
        assertThat(reply.header("Idem-Attempts")).isNull();
    }

    @Test
    void theWholeChainDeadlineBoundsAllAttempts() {
        long started = System.nanoTime();
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],"
                        + "\"simulate\":{\"fake-chat-a\":\"slow:5000\",\"fake-chat-b\":\"slow:5000\"},"
                        + "\"redundancy\":{\"timeout_ms\":1000,\"deadline_ms\":1500}");
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertThat(reply.status()).as(reply.raw()).isEqualTo(502);
        assertThat(reply.body().at("/error/attempts")).hasSize(2);
        assertThat(reply.body().at("/error/attempts/1/latency_ms").asLong())
                .as("the second got what was left")
                .isLessThan(900);
        assertThat(tookMs).isLessThan(4_000);
    }

    @Test
    void unconfirmedFailuresAreRecordedBillableUnknownAndFailoversAreAudited() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"simulate\":{\"fake-chat-a\":\"disconnect\"}",
                Map.of());
        assertThat(reply.status()).isEqualTo(200);
        ChatCalls.awaitAudit(server);
        String callId = reply.body().get("id").asText().substring("chatcmpl-".length());
        String uuid = callId.replaceFirst("(\\w{8})(\\w{4})(\\w{4})(\\w{4})(\\w{12})", "$1-$2-$3-$4-$5");
        assertThat(ChatCalls.query(
                        server,
                        "SELECT billable FROM chat_attempts WHERE call_id = ?::uuid AND seq = 1",
                        String.class,
                        uuid))
                .isEqualTo("unknown");
        assertThat(ChatCalls.query(
                        server,
                        "SELECT billable FROM chat_attempts WHERE call_id = ?::uuid AND seq = 2",
                        String.class,
                        uuid))
                .isEqualTo("yes");
        assertThat(ChatCalls.query(
                        server,
                        "SELECT detail->>'to_model' FROM audit_events WHERE type = 'api:model_failover' AND subject = ?",
                        String.class,
                        uuid))
                .isEqualTo("fake-chat-b");
    }
}
