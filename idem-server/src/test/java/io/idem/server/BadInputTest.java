package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad input gets a precise 400 and writes nothing. */
class BadInputTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        // No worker: nothing changes the row counts in the background while a test compares them.
        server = TestServer.start(java.util.Map.of("IDEM_ROLE", "api"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static int rows() {
        return server.node().database().withConnection(c -> {
            try (var rs = c.createStatement()
                    .executeQuery(
                            "SELECT (SELECT count(*) FROM jobs) + (SELECT count(*) FROM job_events) + (SELECT count(*) FROM idempotency_keys)")) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{not json                                                  | invalid_json",
                "[1, 2]                                                     | invalid_json",
                "{}                                                         | missing_prompt",
                "{\"prompt\": \"  \"}                                       | missing_prompt",
                "{\"prompt\": 42}                                           | invalid_prompt",
                "{\"prompt\": \"x\", \"lane\": \"nope\"}                    | unknown_lane",
                "{\"prompt\": \"x\", \"provider_policy\": {\"primary\": \"nope\"}} | unknown_provider",
                "{\"prompt\": \"x\", \"model\": \"no-such-model\"}          | unknown_model",
                "{\"prompt\": \"x\", \"simulate\": {\"primary\": \"explode\"}} | unknown_simulate_mode",
                "{\"prompt\": \"x\", \"simulate\": {\"nope\": \"ok\"}}      | unknown_provider",
                "{\"prompt\": \"x\", \"size\": \"big\"}                     | invalid_size",
                "{\"prompt\": \"x\", \"n\": 99}                             | invalid_n",
                "{\"prompt\": \"x\", \"timeout\": 0}                        | invalid_timeout",
                "{\"prompt\": \"x\", \"kind\": \"sound\"}                   | invalid_kind",
                "{\"prompt\": \"x\", \"colour\": \"red\"}                   | unknown_field",
            })
    void refusedWithACodeAndNothingWritten(String body, String code) {
        int before = rows();
        var reply = server.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(400);
        assertThat(reply.body().get("error").get("code").asText()).isEqualTo(code);
        assertThat(reply.body().get("error").get("request_id").asText()).isNotBlank();
        assertThat(rows()).isEqualTo(before);
    }

    @Test
    void anOversizedPromptIsRefused() {
        var reply = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"" + "x".repeat(4001) + "\"}");
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body().get("error").get("code").asText()).isEqualTo("prompt_too_long");
    }

    @Test
    void anOversizedBodyIsRefused() {
        int before = rows();
        var reply = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"" + "x".repeat(2_000_000) + "\"}");
        assertThat(reply.status()).isEqualTo(413);
        assertThat(rows()).isEqualTo(before);
    }

    /**
     * The refusal must reach a client that is still sending: an answer sent while the body's rest is
     * unread would make the connection reset under the client (one in about sixty tries before the
     * server read the rest away).
     */
    @Test
    void everyOversizedBodyGetsItsAnswerNotAConnectionReset() {
        var sizes = new java.util.Random(11);
        for (int i = 0; i < 40; i++) {
            String prompt = "x".repeat(1_100_000 + sizes.nextInt(3_000_000));
            var reply = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"" + prompt + "\"}");
            assertThat(reply.status()).as("try %d", i).isEqualTo(413);
            assertThat(reply.body().get("error").get("code").asText()).isEqualTo("payload_too_large");
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"''", "tab\there"})
    void aBadIdempotencyKeyIsRefused(String key) {
        var reply = server.send(
                "POST",
                "/v1/jobs",
                TestServer.ADMIN_KEY,
                "{\"prompt\": \"x\"}",
                Map.of("Idempotency-Key", key.equals("''") ? "" : key));
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body().get("error").get("code").asText()).isEqualTo("invalid_idempotency_key");
    }

    @Test
    void anOverlongIdempotencyKeyIsRefused() {
        var reply = server.send(
                "POST",
                "/v1/jobs",
                TestServer.ADMIN_KEY,
                "{\"prompt\": \"x\"}",
                Map.of("Idempotency-Key", "k".repeat(256)));
        assertThat(reply.status()).isEqualTo(400);
    }

    @Test
    void noKeyOrAWrongKeyIs401() {
        assertThat(server.post("/v1/jobs", null, "{\"prompt\": \"x\"}").status())
                .isEqualTo(401);
        var wrong = server.post("/v1/jobs", "idem_wrong", "{\"prompt\": \"x\"}");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.raw()).doesNotContain("idem_wrong");
    }

    @Test
    void anotherOwnersJobAndAnUnknownJobAre404() {
        String alice = server.newKey("alice", "client");
        String bob = server.newKey("bob", "client");
        String id = server.post("/v1/jobs", alice, "{\"prompt\": \"x\"}")
                .body()
                .get("id")
                .asText();
        assertThat(server.get("/v1/jobs/" + id, alice).status()).isEqualTo(200);
        assertThat(server.get("/v1/jobs/" + id, bob).status()).isEqualTo(404);
        assertThat(server.get("/v1/jobs/" + id + "/events", bob).status()).isEqualTo(404);
        assertThat(server.get("/v1/jobs/00000000-0000-0000-0000-000000000000", alice)
                        .status())
                .isEqualTo(404);
        assertThat(server.get("/v1/jobs/not-a-uuid", alice).status()).isEqualTo(404);
        assertThat(server.get("/v1/jobs", bob).body().get("data")).isEmpty();
    }
}
