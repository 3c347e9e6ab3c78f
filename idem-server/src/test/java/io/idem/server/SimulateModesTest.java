package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every simulate mode of DESIGN §7 ends as the table says, with the right attempts and billing. */
class SimulateModesTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static JsonNode runToSettled(String primaryMode) {
        String body = """
                {"prompt": "A lighthouse over a cloud ocean", "timeout": 2,
                 "provider_policy": {"primary": "primary", "backup": "backup"},
                 "simulate": {"primary": "%s"}}
                """.formatted(primaryMode);
        var created = server.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(created.status()).as(created.raw()).isEqualTo(202);
        String id = created.body().get("id").asText();
        JsonNode[] job = new JsonNode[1];
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    job[0] = server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
                    String state = job[0].get("state").asText();
                    return !state.equals("queued") && !state.equals("running");
                });
        return job[0];
    }

    private static List<String> attempts(JsonNode job, String field) {
        List<String> values = new ArrayList<>();
        job.get("attempts")
                .forEach(a -> values.add(
                        a.get("provider").asText() + ":" + a.get(field).asText()));
        return values;
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "ok          | succeeded     | primary:yes              | primary",
                "http_503    | succeeded     | primary:no,backup:yes    | backup",
                "http_429    | succeeded     | primary:no,backup:yes    | backup",
                "refuse      | succeeded     | primary:no,backup:yes    | backup",
                "malformed   | succeeded     | primary:no,backup:yes    | backup",
                "auth        | succeeded     | primary:no,backup:yes    | backup",
                "user_error  | failed        | primary:no               | ",
                "policy      | failed        | primary:no               | ",
                "timeout     | manual_review | primary:unknown          | ",
                "disconnect  | manual_review | primary:unknown          | ",
                "lost        | manual_review | primary:unknown          | ",
                "slow:100    | succeeded     | primary:yes              | primary",
                // Sent again without Expect after http.expect_continue_timeout_ms, within the timeout.
                "ignore_expect | succeeded   | primary:yes              | primary",
                "slow:4000   | manual_review | primary:unknown          | ",
            })
    void eachModeEndsAsTheDesignSays(String mode, String state, String billing, String servedBy) {
        JsonNode job = runToSettled(mode);
        assertThat(job.get("state").asText()).as(job.toString()).isEqualTo(state);
        assertThat(attempts(job, "billable")).containsExactly(billing.split(","));
        assertThat(job.get("provider_calls").asInt()).isEqualTo(billing.split(",").length);
        if (servedBy != null) {
            assertThat(job.get("result").get("provider").asText()).isEqualTo(servedBy);
            assertThat(job.get("result").get("images")).hasSize(1);
        } else {
            assertThat(job.get("result").isNull()).isTrue();
        }
        if (state.equals("manual_review")) {
            assertThat(job.get("review").get("reason").asText()).isEqualTo("unconfirmed");
        }
    }

    @ParameterizedTest
    @CsvSource({"user_error, user_error", "policy, policy"})
    void rejectionsFailWithoutTouchingTheBackup(String mode, String errorClass) {
        JsonNode job = runToSettled(mode);
        assertThat(job.get("error").get("class").asText()).isEqualTo(errorClass);
        assertThat(attempts(job, "provider")).containsExactly("primary:primary");
    }
}
