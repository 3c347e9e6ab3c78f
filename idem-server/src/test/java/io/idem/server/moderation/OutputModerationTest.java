package io.idem.server.moderation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import io.idem.server.config.ConfigException;
import io.idem.server.config.ConfigLoader;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Output moderation end to end, against a stand-in of OpenAI's moderations endpoint: an adult lane
 * opens to approved keys once a moderator is configured; a clean result is delivered, a flagged one
 * (or one the moderator could not check) is withheld, the job failing with the vendor's charge kept
 * on the attempt; every verdict is on the job's trace, and the moderator's key never shows.
 */
class OutputModerationTest {
    private static final String PROVIDERS = """
            {"providers": {"primary": {"adapter": "fake", "cost_per_image_usd": "0.04"}},
             "lanes": {"standard": ["primary"], "adult": {"providers": ["primary"], "adult": true}}}""";

    private static ModerationStandIn moderator;
    private static TestServer server;
    private static String approved;

    @BeforeAll
    static void start() {
        moderator = ModerationStandIn.start();
        server = TestServer.start(env(moderator.url()));
        approved = server.newKey("adult-ok", "client");
        String id = server.get("/v1/admin/keys", TestServer.ADMIN_KEY).body().get("data").findValues("id").stream()
                .map(JsonNode::asText)
                .reduce((a, b) -> b)
                .orElseThrow();
        var patched = server.send(
                "PATCH", "/v1/admin/keys/" + id, TestServer.ADMIN_KEY, "{\"adult_approved\": true}", Map.of());
        assertThat(patched.status()).as(patched.raw()).isEqualTo(200);
    }

    @AfterAll
    static void stop() {
        server.close();
        moderator.close();
    }

    private static Map<String, String> env(String url) {
        Map<String, String> env = new HashMap<>();
        env.put("PROVIDERS_JSON", PROVIDERS);
        env.put("MODERATION_JSON", """
                {"adapter": "openai_moderation", "url": "%s", "api_key_env": "IDEM_TEST_MODERATION_KEY",
                 "timeout_ms": 2000}""".formatted(url));
        env.put("IDEM_TEST_MODERATION_KEY", ModerationStandIn.KEY);
        return env;
    }

    private static JsonNode ended(String body) {
        var reply = server.post("/v1/jobs", approved, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
        String id = reply.body().get("id").asText();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !server.get("/v1/jobs/" + id, approved)
                        .body()
                        .get("state")
                        .asText()
                        .matches("queued|running"));
        return server.get("/v1/jobs/" + id, approved).body();
    }

    private static JsonNode verdict(JsonNode job) {
        JsonNode events = server.get("/v1/jobs/" + job.get("id").asText() + "/events", approved)
                .body()
                .get("data");
        for (JsonNode event : events) {
            if (event.get("type").asText().equals("output.moderated")) {
                return event.get("detail");
            }
        }
        throw new AssertionError("no output.moderated event in " + events);
    }

    @Test
    void aCleanResultOfAnAdultLaneIsCheckedThenDelivered() {
        int before = moderator.requests.size();
        JsonNode job = ended("{\"prompt\": \"a quiet beach\", \"lane\": \"adult\"}");
        assertThat(job.get("state").asText()).as(job.toString()).isEqualTo("succeeded");
        assertThat(job.get("result").get("images")).hasSize(1);
        assertThat(verdict(job).get("flagged").asBoolean()).isFalse();
        JsonNode sent = moderator.requests.get(before);
        assertThat(sent.get("model").asText()).isEqualTo("omni-moderation-latest");
        assertThat(sent.get("input").findValuesAsText("type")).containsExactly("text", "image_url");
        assertThat(sent.get("input").get(0).get("text").asText()).isEqualTo("a quiet beach");
    }

    @Test
    void aFlaggedResultIsWithheldTheJobFailsAndTheVendorsChargeStaysOnTheAttempt() {
        int ledger = server.node().fakes().get("primary").ledger().size();
        JsonNode job = ended("{\"prompt\": \"something forbidden\", \"lane\": \"adult\"}");
        assertThat(job.get("state").asText()).as(job.toString()).isEqualTo("failed");
        assertThat(job.get("error").get("code").asText()).isEqualTo("output_flagged");
        assertThat(job.get("result").isNull()).isTrue();
        assertThat(job.get("attempts")).hasSize(1);
        assertThat(job.get("attempts").get(0).get("billable").asText()).isEqualTo("yes");
        assertThat(server.node().fakes().get("primary").ledger()).hasSize(ledger + 1);
        JsonNode verdict = verdict(job);
        assertThat(verdict.get("flagged").asBoolean()).isTrue();
        assertThat(verdict.get("categories").findValuesAsText("")).isEmpty();
        assertThat(verdict.get("categories").toString()).contains("sexual");
        assertThat(job.toString()).doesNotContain(ModerationStandIn.KEY);
    }

    @Test
    void aResultTheModeratorCouldNotCheckIsWithheldToo() {
        moderator.down = true;
        try {
            JsonNode job = ended("{\"prompt\": \"a quiet beach\", \"lane\": \"adult\"}");
            assertThat(job.get("state").asText()).isEqualTo("failed");
            assertThat(job.get("error").get("code").asText()).isEqualTo("moderation_unavailable");
            assertThat(job.get("attempts").get(0).get("billable").asText()).isEqualTo("yes");
            JsonNode verdict = verdict(job);
            assertThat(verdict.get("unavailable").asBoolean()).isTrue();
            assertThat(verdict.toString()).contains("HTTP 503").doesNotContain(ModerationStandIn.KEY);
        } finally {
            moderator.down = false;
        }
    }

    @Test
    void aLaneThatIsNotModeratedNeverCallsTheModerator() {
        int before = moderator.requests.size();
        JsonNode job = ended("{\"prompt\": \"something forbidden\"}");
        assertThat(job.get("state").asText()).isEqualTo("succeeded");
        assertThat(moderator.requests).hasSize(before);
    }

    @Test
    void aKeyWithoutApprovalStaysOutOfTheAdultLane() {
        var refused = server.post(
                "/v1/jobs", server.newKey("not-approved", "client"), "{\"prompt\": \"x\", \"lane\": \"adult\"}");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.body().get("error").get("code").asText()).isEqualTo("adult_lane_not_approved");
    }

    @Test
    void aModerationBlockWithAnUnknownFieldOrLaneIsRefusedAtStart() {
        Map<String, String> typo = env("http://127.0.0.1:9/v1/moderations");
        typo.put("MODERATION_JSON", "{\"adapter\": \"openai_moderation\", \"timout_ms\": 100}");
        assertThatThrownBy(() -> new ConfigLoader(typo).load(Optional.empty()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("moderation.timout_ms")
                .hasMessageContaining("moderation.timeout_ms");
        Map<String, String> lane = env("http://127.0.0.1:9/v1/moderations");
        lane.put("MODERATION_JSON", "{\"adapter\": \"http\", \"url\": \"http://127.0.0.1:9/\", \"lanes\": [\"vip\"]}");
        assertThatThrownBy(() -> new ConfigLoader(lane).load(Optional.empty()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'vip'");
    }
}
