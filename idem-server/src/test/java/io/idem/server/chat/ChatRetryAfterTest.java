package io.idem.server.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.TestServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A chat whose models all answered {@code 429} says when the vendors take calls again, in their own
 * words: the soonest {@code Retry-After} any of them gave, plain or streamed. Each test has its own
 * node, since a vendor's wait closes the provider for that long.
 */
class ChatRetryAfterTest {
    private static final String HELLO = "\"messages\":[{\"role\":\"user\",\"content\":\"hi there\"}]";
    private static final String BOTH_LIMITED = "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],"
            + "\"simulate\":{\"fake-chat-a\":\"rate_limited:30\",\"fake-chat-b\":\"rate_limited:12\"}";

    @Test
    void aPlainCallPassesOnTheSoonestWaitTheVendorsNamed() {
        try (TestServer server = TestServer.start()) {
            var limited = chat(server, BOTH_LIMITED);
            assertThat(limited.status()).as(limited.raw()).isEqualTo(429);
            assertThat(limited.body().at("/error/type").asText()).isEqualTo("rate_limit_error");
            assertThat(limited.header("Retry-After")).isEqualTo("12");
            assertThat(limited.header("x-should-retry")).isEqualTo("false");
        }
    }

    @Test
    void aStreamThatNeverStartedPassesOnTheSoonestWaitToo() {
        try (TestServer server = TestServer.start()) {
            var limited = chat(server, BOTH_LIMITED + ",\"stream\":true");
            assertThat(limited.status()).as(limited.raw()).isEqualTo(429);
            assertThat(limited.header("Retry-After")).isEqualTo("12");
            assertThat(limited.header("x-should-retry")).isEqualTo("false");
        }
    }

    @Test
    void aVendorThatNamedNoWaitCountsAsOneSecond() {
        try (TestServer server = TestServer.start()) {
            var limited = chat(
                    server,
                    "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],"
                            + "\"simulate\":{\"fake-chat-a\":\"rate_limited:30\",\"fake-chat-b\":\"http_429\"}");
            assertThat(limited.status()).as(limited.raw()).isEqualTo(429);
            assertThat(limited.header("Retry-After")).isEqualTo("1");
        }
    }

    private static TestServer.Reply chat(TestServer server, String fields) {
        return server.send(
                "POST", "/v1/chat/completions", TestServer.ADMIN_KEY, "{" + fields + "," + HELLO + "}", Map.of());
    }
}
