package io.idem.server.chat;

import static io.idem.server.chat.ChatCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.providers.fake.FakeVendorServer;
import io.idem.server.TestServer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Chat models configured on providers, and a lane's {@code unconfirmed: failover | stop}. */
class ChatLanePolicyTest {
    private static FakeVendorServer one;
    private static FakeVendorServer two;
    private static TestServer server;

    @BeforeAll
    static void start() {
        one = FakeVendorServer.start(0);
        two = FakeVendorServer.start(0);
        server = TestServer.start(Map.of("PROVIDERS_JSON", """
                {"providers": {
                   "one": {"adapter": "fake", "base_url": "%s",
                           "chat_models": {"m1": {"model": "vendor-m1", "input_usd_per_1m": 1, "output_usd_per_1m": 2}}},
                   "two": {"adapter": "fake", "base_url": "%s", "chat_models": ["m2"]}},
                 "lanes": {"standard": ["one", "two"],
                           "careful": {"providers": ["one", "two"], "unconfirmed": "stop"}}}
                """.formatted(one.baseUrl(), two.baseUrl())));
    }

    @AfterAll
    static void stop() {
        server.close();
        one.close();
        two.close();
    }

    @Test
    void aConfiguredChatModelReachesItsProviderUnderItsVendorId() {
        var reply = call(server, TestServer.ADMIN_KEY, "\"model\":\"m1\"");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().get("model").asText()).isEqualTo("m1");
        assertThat(reply.body().at("/choices/0/message/content").asText()).startsWith("Hello from vendor-m1.");
        assertThat(one.chatLedger()).anySatisfy(line -> assertThat(line.model()).isEqualTo("vendor-m1"));
    }

    @Test
    void byDefaultAnUnconfirmedAttemptFailsOverAndIsRecordedBillableUnknown() {
        var reply =
                call(server, TestServer.ADMIN_KEY, "\"models\":[\"m1\",\"m2\"],\"simulate\":{\"m1\":\"disconnect\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().at("/idem/served_model").asText()).isEqualTo("m2");
        assertThat(reply.body().at("/idem/failover/attempts/0/billable").asText())
                .isEqualTo("unknown");
    }

    @Test
    void aLaneThatStopsOnUnconfirmedEndsTheChainThere() {
        var reply = call(
                server,
                TestServer.ADMIN_KEY,
                "\"models\":[\"m1\",\"m2\"],\"lane\":\"careful\",\"simulate\":{\"m1\":\"disconnect\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(502);
        assertThat(reply.body().at("/error/attempts")).singleElement().satisfies(a -> {
            assertThat(a.get("outcome").asText()).isEqualTo("unconfirmed");
            assertThat(a.get("billable").asText()).isEqualTo("unknown");
        });
        assertThat(reply.body().at("/error/message").asText()).contains("careful");
        var unavailable = call(
                server,
                TestServer.ADMIN_KEY,
                "\"models\":[\"m1\",\"m2\"],\"lane\":\"careful\",\"simulate\":{\"m1\":\"http_503\"}");
        assertThat(unavailable.status()).as("only unconfirmed attempts stop").isEqualTo(200);
    }
}
