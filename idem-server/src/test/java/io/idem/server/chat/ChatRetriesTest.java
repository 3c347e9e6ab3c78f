package io.idem.server.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A chain entry tries its model again ({@code retries}; by default once for the chain's last model and
 * not at all for one with a fallback behind it) only after a failure known to be
 * unbilled, a 429 or a 500/502/503 before any content, waiting what the vendor asked while the
 * chain's deadline allows; every try is its own audited attempt. Each test has its own node, since a
 * vendor's wait closes the provider for that long.
 */
class ChatRetriesTest {

    @Test
    void aRateLimitWithRetryAfterIsRetriedOnTheSameModelAfterTheWait() {
        try (TestServer server = TestServer.start()) {
            long started = System.nanoTime();
            var reply = ChatCalls.call(
                    server,
                    TestServer.ADMIN_KEY,
                    "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"redundancy\":{\"retries\":1},"
                            + "\"simulate\":{\"fake-chat-a\":\"rate_limited:1,ok\"}");
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
            assertThat(reply.body().at("/idem/served_model").asText()).isEqualTo("fake-chat-a");
            assertThat(attempts(reply)).containsExactly("fake-chat-a unavailable 429 no", "fake-chat-a served 200 yes");
            assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            ChatCalls.awaitAudit(server);
            assertThat(audited(server)).isEqualTo("1 fake-chat-a unavailable no,2 fake-chat-a served yes");

            long again = System.nanoTime();
            var longer = ChatCalls.call(
                    server,
                    TestServer.ADMIN_KEY,
                    "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"redundancy\":{\"retries\":1},"
                            + "\"simulate\":{\"fake-chat-a\":\"rate_limited:2,ok\"}");
            assertThat(longer.body().at("/idem/served_model").asText())
                    .as(longer.raw())
                    .isEqualTo("fake-chat-a");
            assertThat(Duration.ofNanos(System.nanoTime() - again))
                    .as("the vendor's Retry-After, not a fixed backoff")
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        }
    }

    @Test
    void aServerErrorTwiceFailsOverAfterTheOneRetry() {
        try (TestServer server = TestServer.start()) {
            var reply = ChatCalls.call(
                    server,
                    TestServer.ADMIN_KEY,
                    "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"redundancy\":{\"retries\":1},"
                            + "\"simulate\":{\"fake-chat-a\":\"http_500\"}");
            assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
            assertThat(reply.body().at("/idem/served_model").asText()).isEqualTo("fake-chat-b");
            assertThat(attempts(reply))
                    .containsExactly(
                            "fake-chat-a unavailable 500 no",
                            "fake-chat-a unavailable 500 no",
                            "fake-chat-b served 200 yes");
            ChatCalls.awaitAudit(server);
            assertThat(audited(server))
                    .isEqualTo("1 fake-chat-a unavailable no,2 fake-chat-a unavailable no,3 fake-chat-b served yes");
        }
    }

    @Test
    void byDefaultAServerErrorOrRateLimitWithAFallbackLeftFailsOverAtOnceAndTheLastModelIsTriedAgain() {
        try (TestServer server = TestServer.start()) {
            var failover = ChatCalls.call(
                    server,
                    TestServer.ADMIN_KEY,
                    "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"simulate\":{\"fake-chat-a\":\"http_503\"}");
            assertThat(failover.status()).as(failover.raw()).isEqualTo(200);
            assertThat(attempts(failover))
                    .containsExactly("fake-chat-a unavailable 503 no", "fake-chat-b served 200 yes");

            var last = ChatCalls.call(
                    server,
                    TestServer.ADMIN_KEY,
                    "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"simulate\":{\"fake-chat-a\":\"http_503\",\"fake-chat-b\":\"http_503,ok\"}");
            assertThat(attempts(last))
                    .containsExactly(
                            "fake-chat-a unavailable 503 no",
                            "fake-chat-b unavailable 503 no",
                            "fake-chat-b served 200 yes");

            long started = System.nanoTime();
            var limited = ChatCalls.call(
                    server,
                    TestServer.ADMIN_KEY,
                    "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"simulate\":{\"fake-chat-a\":\"rate_limited:1,ok\"}");
            assertThat(attempts(limited))
                    .containsExactly("fake-chat-a unavailable 429 no", "fake-chat-b served 200 yes");
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("no wait for the vendor's Retry-After when a fallback can answer")
                    .isLessThan(Duration.ofSeconds(1));
        }
    }

    @Test
    void aStreamRefusedBeforeItsFirstTokenIsRetriedToo() {
        try (TestServer server = TestServer.start()) {
            var reply = ChatCalls.call(
                    server,
                    TestServer.ADMIN_KEY,
                    "\"models\":[{\"model\":\"fake-chat-a\",\"retries\":1},\"fake-chat-b\"],\"stream\":true,"
                            + "\"simulate\":{\"fake-chat-a\":\"http_503,ok\"}");
            assertThat(reply.raw()).endsWith("data: [DONE]\n\n");
            assertThat(reply.header("Idem-Served-Model")).isEqualTo("fake-chat-a");
            assertThat(reply.header("Idem-Attempts"))
                    .startsWith("\"fake-chat-a\";provider=\"primary\";outcome=unavailable;status=503;")
                    .doesNotContain("fake-chat-b");
            assertThat(ChatCalls.text(ChatCalls.frames(reply.raw())))
                    .isEqualTo("Hello from fake-chat-a. You said: hi there");
        }
    }

    @Test
    void aRetryWhoseWaitWouldPassTheDeadlineFailsOverAtOnce() {
        try (TestServer server = TestServer.start()) {
            long started = System.nanoTime();
            var reply = ChatCalls.call(
                    server,
                    TestServer.ADMIN_KEY,
                    "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"redundancy\":{\"deadline_ms\":1500,\"retries\":1},"
                            + "\"simulate\":{\"fake-chat-a\":\"rate_limited:2\"}");
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
            assertThat(attempts(reply)).containsExactly("fake-chat-a unavailable 429 no", "fake-chat-b served 200 yes");
            assertThat(took).isLessThan(Duration.ofMillis(1500));
        }
    }

    @Test
    void aFailureThatMayHaveBeenBilledIsNeverRetried() {
        try (TestServer server = TestServer.start()) {
            var reply = ChatCalls.call(
                    server,
                    TestServer.ADMIN_KEY,
                    "\"models\":[{\"model\":\"fake-chat-a\",\"retries\":3},\"fake-chat-b\"],"
                            + "\"simulate\":{\"fake-chat-a\":\"disconnect\"}");
            assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
            assertThat(attempts(reply)).hasSize(2);
            assertThat(attempts(reply).getFirst())
                    .startsWith("fake-chat-a unconfirmed")
                    .endsWith("unknown");
        }
    }

    @Test
    void retriesZeroFailsOverAtOnceAndAnEntrysRetriesWinOverTheChains() {
        try (TestServer server = TestServer.start()) {
            var none = ChatCalls.call(
                    server,
                    TestServer.ADMIN_KEY,
                    "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"redundancy\":{\"retries\":0},"
                            + "\"simulate\":{\"fake-chat-a\":\"http_503\"}");
            assertThat(attempts(none)).containsExactly("fake-chat-a unavailable 503 no", "fake-chat-b served 200 yes");
            var two = ChatCalls.call(
                    server,
                    TestServer.ADMIN_KEY,
                    "\"models\":[{\"model\":\"fake-chat-a\",\"retries\":2},\"fake-chat-b\"],\"redundancy\":{\"retries\":0},"
                            + "\"simulate\":{\"fake-chat-a\":\"http_503,http_503,ok\"}");
            assertThat(two.body().at("/idem/served_model").asText())
                    .as(two.raw())
                    .isEqualTo("fake-chat-a");
            assertThat(attempts(two)).hasSize(3);
        }
    }

    @Test
    void badRetriesAndTimeoutsAreRefusedNamingTheField() {
        try (TestServer server = TestServer.start()) {
            assertRefused(
                    server,
                    "\"model\":\"fake-chat-a\",\"redundancy\":{\"retries\":-1}",
                    "invalid_retries",
                    "redundancy.retries");
            assertRefused(
                    server,
                    "\"models\":[{\"model\":\"fake-chat-a\",\"retries\":6}]",
                    "invalid_retries",
                    "models[0].retries");
            assertRefused(
                    server,
                    "\"model\":\"fake-chat-a\",\"redundancy\":{\"retries\":\"1\"}",
                    "invalid_retries",
                    "redundancy.retries");
            assertRefused(
                    server,
                    "\"model\":\"fake-chat-a\",\"redundancy\":{\"stream_idle_timeout_ms\":100}",
                    "invalid_stream_idle_timeout_ms",
                    "redundancy.stream_idle_timeout_ms");
            assertRefused(
                    server,
                    "\"models\":[{\"model\":\"fake-chat-a\",\"stream_idle_timeout_ms\":400000}]",
                    "invalid_stream_idle_timeout_ms",
                    "models[0].stream_idle_timeout_ms");
            assertRefused(
                    server,
                    "\"model\":\"fake-chat-a\",\"redundancy\":{\"first_token_timeout_ms\":1.5}",
                    "invalid_first_token_timeout_ms",
                    "redundancy.first_token_timeout_ms");
            var created =
                    server.post("/v1/admin/keys", TestServer.ADMIN_KEY, "{\"owner\":\"retrier\",\"role\":\"client\"}");
            var patched = server.send(
                    "PATCH",
                    "/v1/admin/keys/" + created.body().get("id").asText(),
                    TestServer.ADMIN_KEY,
                    "{\"failover_defaults\":{\"models\":[\"fake-chat-a\"],\"retries\":9}}",
                    java.util.Map.of());
            assertThat(patched.status()).as(patched.raw()).isEqualTo(400);
            assertThat(patched.body().at("/error/param").asText()).isEqualTo("failover_defaults.retries");
        }
    }

    private static void assertRefused(TestServer server, String fields, String code, String param) {
        var reply = ChatCalls.call(server, TestServer.ADMIN_KEY, fields);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(400);
        assertThat(reply.body().at("/error/code").asText()).as(reply.raw()).isEqualTo(code);
        assertThat(reply.body().at("/error/param").asText()).as(reply.raw()).isEqualTo(param);
    }

    /** The report's attempts as "model outcome status billable". */
    static List<String> attempts(TestServer.Reply reply) {
        List<String> out = new ArrayList<>();
        for (JsonNode attempt : reply.body().at("/idem/failover/attempts")) {
            out.add(attempt.path("model").asText() + " "
                    + attempt.path("outcome").asText() + " "
                    + attempt.path("status").asInt() + " "
                    + attempt.path("billable").asText());
        }
        return out;
    }

    /** The last call's audited attempts as "seq model outcome billable", in order. */
    private static String audited(TestServer server) {
        return ChatCalls.query(
                server,
                "SELECT string_agg(seq || ' ' || model || ' ' || outcome || ' ' || billable, ',' ORDER BY seq) "
                        + "FROM chat_attempts WHERE call_id = (SELECT call_id FROM chat_attempts ORDER BY id DESC LIMIT 1)",
                String.class);
    }
}
