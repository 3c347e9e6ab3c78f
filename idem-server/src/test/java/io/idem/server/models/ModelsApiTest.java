package io.idem.server.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.fake.FakeVendorServer;
import io.idem.server.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/models} over real HTTP: OpenAI's list shape, the chat models and the job models of
 * the lanes a key may use, narrowed by the key's jurisdiction, never an adult lane's, a disabled or
 * unkeyed provider's.
 */
class ModelsApiTest {
    private static FakeVendorServer vendor;
    private static TestServer server;

    @BeforeAll
    static void start() {
        vendor = FakeVendorServer.start(0);
        server = TestServer.start(Map.of("PROVIDERS_JSON", """
                {"providers": {
                   "us": {"adapter": "fake", "base_url": "%1$s", "models": {"us-image": "vendor-us-1"},
                          "chat_models": {"fake-chat-a": "fake-chat-a", "vendor/chat-x": "fake-chat-b"},
                          "capabilities": {"jurisdictions": ["us"], "max_n": 1, "kinds": ["image"]}},
                   "eu": {"adapter": "fake", "base_url": "%1$s", "models": {"eu-image": "vendor-eu-1"},
                          "capabilities": {"jurisdictions": ["eu"], "max_n": 4}},
                   "keyed": {"adapter": "fake", "base_url": "%1$s", "models": {"keyed-image": "k"},
                             "api_key_env": "IDEM_TEST_MISSING_KEY"},
                   "naughty": {"adapter": "fake", "base_url": "%1$s", "models": {"adult-image": "a"}},
                   "off": {"adapter": "fake", "base_url": "%1$s", "models": {"off-image": "o"}, "enabled": false},
                   "canned": {"adapter": "static", "chat_models": ["static"]}},
                 "lanes": {"standard": ["us", "eu", "keyed", "off"],
                           "adult": {"providers": ["naughty"], "adult": true}}}
                """.formatted(vendor.baseUrl())));
    }

    @AfterAll
    static void stop() {
        server.close();
        vendor.close();
    }

    private static String key(String owner, String attributes) {
        String secret = server.newKey(owner, "client");
        String id = server.get("/v1/admin/keys", TestServer.ADMIN_KEY).body().get("data").findValues("id").stream()
                .map(JsonNode::asText)
                .reduce((a, b) -> b)
                .orElseThrow();
        var patched = server.send("PATCH", "/v1/admin/keys/" + id, TestServer.ADMIN_KEY, attributes, Map.of());
        assertThat(patched.status()).as(patched.raw()).isEqualTo(200);
        return secret;
    }

    private static List<String> ids(String key) {
        var reply = server.get("/v1/models", key);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().get("object").asText()).isEqualTo("list");
        List<String> ids = new ArrayList<>();
        reply.body().get("data").forEach(m -> ids.add(m.get("id").asText()));
        return ids;
    }

    @Test
    void theListHasOpenAisShapeWithIdemsFieldsUnderIdem() {
        var reply = server.get("/v1/models", TestServer.ADMIN_KEY);
        JsonNode chat = reply.body().get("data").get(0);
        assertThat(chat.get("id").asText()).isEqualTo("fake-chat-a");
        assertThat(chat.get("object").asText()).isEqualTo("model");
        assertThat(chat.get("created").isIntegralNumber()).isTrue();
        assertThat(chat.get("owned_by").asText()).isEqualTo("us");
        assertThat(chat.at("/idem/kinds/0").asText()).isEqualTo("chat");
        assertThat(chat.at("/idem/providers/0/provider").asText()).isEqualTo("us");

        var slashed = server.get("/v1/models/vendor/chat-x", TestServer.ADMIN_KEY);
        assertThat(slashed.status()).as(slashed.raw()).isEqualTo(200);
        assertThat(slashed.body().get("id").asText()).isEqualTo("vendor/chat-x");
        assertThat(slashed.body().at("/idem/providers/0/vendor_model").asText()).isEqualTo("fake-chat-b");

        JsonNode image = server.get("/v1/models/us-image", TestServer.ADMIN_KEY).body();
        assertThat(image.get("object").asText()).isEqualTo("model");
        assertThat(image.get("owned_by").asText()).isEqualTo("us");
        assertThat(image.at("/idem/kinds").toString()).isEqualTo("[\"image\"]");
        JsonNode offer = image.at("/idem/providers/0");
        assertThat(offer.get("vendor_model").asText()).isEqualTo("vendor-us-1");
        assertThat(offer.get("lanes").toString()).isEqualTo("[\"standard\"]");
        assertThat(offer.at("/capabilities/max_n").asInt()).isEqualTo(1);
        assertThat(offer.at("/capabilities/jurisdictions/0").asText()).isEqualTo("us");
    }

    @Test
    void aKeySeesChatModelsAndTheJobModelsItsRoutingAllows() {
        List<String> any = ids(TestServer.ADMIN_KEY);
        assertThat(any)
                .startsWith("fake-chat-a", "vendor/chat-x", "static")
                .contains("us-image", "eu-image", "fake-image-v1");
        assertThat(any).doesNotContain("keyed-image", "off-image", "adult-image");

        List<String> eu = ids(key("eu-client", "{\"jurisdiction\": \"eu\", \"adult_approved\": true}"));
        assertThat(eu).contains("fake-chat-a", "static", "eu-image", "fake-image-v1");
        assertThat(eu).doesNotContain("us-image", "adult-image");
        assertThat(server.get("/v1/models/fake-image-v1", TestServer.ADMIN_KEY)
                        .body()
                        .at("/idem/providers")
                        .size())
                .isEqualTo(2);
    }

    @Test
    void aModelTheKeyMayNotUseIsA404InTheErrorShape() {
        String eu = key("eu-only", "{\"jurisdiction\": \"eu\"}");
        for (String path : List.of("/v1/models/no-such-model", "/v1/models/us-image", "/v1/models/adult-image")) {
            var reply = server.get(path, eu);
            assertThat(reply.status()).as(path).isEqualTo(404);
            assertThat(reply.body().at("/error/code").asText()).isEqualTo("model_not_found");
            assertThat(reply.body().at("/error/message").asText()).contains(path.substring(11));
            assertThat(reply.body().at("/error/request_id").asText()).startsWith("req_");
        }
        assertThat(server.get("/v1/models", null).status()).isEqualTo(401);
    }
}
