package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The official {@code openai} npm client, unmodified and on its default retries, makes exactly one
 * job (or one chat call) and at most one call per provider (per model) for one logical call,
 * against failing providers and against a slow one with a short client timeout
 * ({@code src/test/node/openai-retries.mjs}). Skipped only when there is no {@code node}.
 */
class OpenAiNodeRetriesTest {
    private static final String[] SCENARIOS = {"images-failing", "images-slow", "chat-failing", "chat-slow"};
    private static TestServer server;
    private static JsonNode seen;

    @BeforeAll
    static void runTheClient() throws Exception {
        NodeScripts.assumeInstalled();
        server = TestServer.start();
        Map<String, String> keys = new LinkedHashMap<>();
        for (String scenario : SCENARIOS) {
            String variable =
                    "IDEM_KEY_" + scenario.toUpperCase(java.util.Locale.ROOT).replace('-', '_');
            keys.put(variable, server.newKey("retries-" + scenario, "client"));
        }
        seen = NodeScripts.run("openai-retries.mjs", server, keys, 180);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static long count(String sql, String owner) {
        return server.node().database().withConnection(c -> {
            try (var ps = c.prepareStatement(sql)) {
                ps.setString(1, owner);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    private static long jobs(String scenario) {
        return count("SELECT count(*) FROM jobs WHERE owner = ?", "retries-" + scenario);
    }

    /** The most calls any one provider got for the scenario's jobs. */
    private static long mostCallsToOneProvider(String scenario) {
        return count("""
                SELECT coalesce(max(n), 0) FROM (
                    SELECT count(*) AS n FROM provider_attempts a JOIN jobs j ON j.id = a.job_id
                     WHERE j.owner = ? GROUP BY a.provider) per_provider
                """, "retries-" + scenario);
    }

    private static long chatCalls(String scenario) {
        server.awaitChatAudit();
        return count("SELECT count(DISTINCT call_id) FROM chat_attempts WHERE owner = ?", "retries-" + scenario);
    }

    /** The most requests any one model got from the scenario's calls (skipped models got none). */
    private static long mostCallsToOneModel(String scenario) {
        server.awaitChatAudit();
        return count("""
                SELECT coalesce(max(n), 0) FROM (
                    SELECT count(*) AS n FROM chat_attempts WHERE owner = ? AND outcome <> 'skipped'
                     GROUP BY model) per_model
                """, "retries-" + scenario);
    }

    @Test
    void imagesAgainstTwoFailingProvidersIsOneJobAndOneCallPerProvider() {
        assertThat(seen.at("/imagesFailing/ok").asBoolean()).as(seen.toString()).isFalse();
        assertThat(seen.at("/imagesFailing/status").asInt()).isEqualTo(503);
        assertThat(jobs("images-failing")).isEqualTo(1);
        assertThat(mostCallsToOneProvider("images-failing")).isEqualTo(1);
    }

    @Test
    void imagesWithAShortClientTimeoutAgainstASlowProviderIsOneJob() {
        assertThat(jobs("images-slow")).as(seen.toString()).isEqualTo(1);
        assertThat(mostCallsToOneProvider("images-slow")).isEqualTo(1);
    }

    @Test
    void chatAgainstFailingModelsIsOneCallAndOneRequestPerModel() {
        assertThat(seen.at("/chatFailing/ok").asBoolean()).as(seen.toString()).isFalse();
        assertThat(seen.at("/chatFailing/status").asInt()).isEqualTo(502);
        assertThat(seen.at("/chatFailing/code").asText()).isEqualTo("all_models_failed");
        assertThat(chatCalls("chat-failing")).isEqualTo(1);
        assertThat(mostCallsToOneModel("chat-failing")).isEqualTo(1);
    }

    @Test
    void chatWithAShortClientTimeoutAgainstASlowModelIsOneCallAndItsAnswerReachesTheClient() {
        assertThat(chatCalls("chat-slow")).as(seen.toString()).isEqualTo(1);
        assertThat(mostCallsToOneModel("chat-slow")).isEqualTo(1);
        assertThat(seen.at("/chatSlow/ok").asBoolean())
                .as("the SDK's last retry is answered with the first call's reply: " + seen)
                .isTrue();
    }
}
