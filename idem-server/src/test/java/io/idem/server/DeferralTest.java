package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.breaker.BreakerState;
import io.idem.postgres.PgBreakerStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A job that made no call at risk waits out closed providers instead of failing (real PostgreSQL,
 * the in-process fake vendors): a burst while both breakers are open all succeeds after the
 * cooldown; the job's deadline ends the waiting and cuts a call's timeout.
 */
class DeferralTest {
    private TestServer server;

    @BeforeEach
    void start() {
        server = TestServer.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** Opens the provider's breaker for every node through the shared store, as a node would. */
    private void open(String provider, Duration cooldown) {
        Instant now = Instant.now();
        new PgBreakerStore(server.node().database()).open(provider, now.plus(cooldown), "test", "elsewhere", now);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> server.node().breakers().snapshot(provider).state() == BreakerState.OPEN);
    }

    private String submit(String body) {
        var reply = server.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
        return reply.body().get("id").asText();
    }

    private JsonNode job(String id) {
        return server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
    }

    private List<JsonNode> events(String id, String type) {
        List<JsonNode> found = new ArrayList<>();
        server.get("/v1/jobs/" + id + "/events", TestServer.ADMIN_KEY)
                .body()
                .get("data")
                .forEach(e -> {
                    if (e.get("type").asText().equals(type)) {
                        found.add(e);
                    }
                });
        return found;
    }

    private int count(String sql) {
        return server.node().database().withConnection(c -> {
            try (var rs = c.createStatement().executeQuery(sql)) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }

    private String texts(String sql) {
        return server.node().database().withConnection(c -> {
            StringBuilder out = new StringBuilder();
            try (var rs = c.createStatement().executeQuery(sql)) {
                while (rs.next()) {
                    out.append(rs.getString(1)).append('\n');
                }
            }
            return out.toString();
        });
    }

    @Test
    void aBurstWhileBothBreakersAreOpenAllSucceedsAfterTheCooldown() throws Exception {
        // long enough for the whole burst to arrive while both are open, even on a busy machine
        open("primary", Duration.ofSeconds(20));
        open("backup", Duration.ofSeconds(20));
        List<String> ids = new ArrayList<>();
        try (ExecutorService clients = Executors.newFixedThreadPool(8)) {
            List<Future<String>> sent = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String body = "{\"prompt\": \"burst " + i + "\"}";
                sent.add(clients.submit(() -> submit(body)));
            }
            for (Future<String> f : sent) {
                ids.add(f.get());
            }
        }
        assertThat(server.node().breakers().snapshot("primary").state()).isEqualTo(BreakerState.OPEN);

        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> count("SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')") == 0);

        assertThat(count("SELECT count(*) FROM jobs WHERE state = 'succeeded'"))
                .as(texts("SELECT state || ' ' || coalesce(error_message, '') || ' ' || coalesce(review_reason, '')"
                        + " FROM jobs WHERE state <> 'succeeded'"))
                .isEqualTo(200);
        assertThat(count("SELECT count(*) FROM jobs WHERE state = 'failed'")).isZero();
        assertThat(count("SELECT count(*) FROM provider_attempts"))
                .as("one call per job")
                .isEqualTo(200);
        assertThat(count("""
                        SELECT count(*) FROM jobs j WHERE NOT EXISTS (
                            SELECT 1 FROM job_events e WHERE e.job_id = j.id AND e.type = 'job.deferred')
                        """)).as("every job waited").isZero();
        JsonNode deferred = events(ids.getFirst(), "job.deferred").getFirst();
        assertThat(deferred.get("to").asText()).isEqualTo("queued");
        assertThat(deferred.get("detail").get("candidates"))
                .extracting(
                        c -> c.get("provider").asText() + "=" + c.get("reason").asText())
                .containsExactly("primary=breaker_open", "backup=breaker_open");
        assertThat(deferred.get("detail").get("not_before").asText()).isNotBlank();
    }

    @Test
    void aJobWhoseDeadlinePassesWhileItWaitsFailsProvidersExhausted() {
        open("primary", Duration.ofMinutes(5));
        open("backup", Duration.ofMinutes(5));
        String id = submit("{\"prompt\": \"in a hurry\", \"deadline_seconds\": 2}");

        await().atMost(Duration.ofSeconds(20))
                .until(() -> job(id).get("state").asText().equals("failed"));

        JsonNode failed = job(id);
        assertThat(failed.get("error").get("code").asText()).isEqualTo("providers_exhausted");
        assertThat(failed.get("error").get("message").asText())
                .contains("primary=breaker_open, backup=breaker_open")
                .contains("deadline");
        assertThat(failed.get("provider_calls").asInt()).isZero();
        assertThat(events(id, "job.deferred")).isNotEmpty();
    }

    @Test
    void aCallsTimeoutIsCutToWhatIsLeftOfTheDeadline() {
        String id = submit("""
                {"prompt": "slow", "timeout": 30, "deadline_seconds": 2,
                 "provider_policy": {"primary": "primary"}, "simulate": {"primary": "slow:8000"}}
                """);

        await().atMost(Duration.ofSeconds(20))
                .until(() -> !job(id).get("state").asText().matches("queued|running"));

        JsonNode attempt = job(id).get("attempts").get(0);
        assertThat(attempt.get("latency_ms").asLong()).isBetween(1_000L, 4_000L);
        assertThat(job(id).get("state").asText()).isEqualTo("manual_review");
    }

    @Test
    void aDeadlineOutsideTheConfiguredRangeIsRefusedAndNothingIsWritten() {
        for (String bad : List.of("0", "86401", "1.5", "\"60\"")) {
            var reply = server.post(
                    "/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"x\", \"deadline_seconds\": " + bad + "}");
            assertThat(reply.status()).isEqualTo(400);
            assertThat(reply.body().get("error").get("code").asText()).isEqualTo("invalid_deadline_seconds");
        }
        assertThat(count("SELECT count(*) FROM jobs")).isZero();
        var images = server.post(
                "/v1/images/generations", TestServer.ADMIN_KEY, "{\"prompt\": \"x\", \"deadline_seconds\": 0}");
        assertThat(images.body().get("error").get("code").asText()).isEqualTo("invalid_deadline_seconds");
    }

    @Test
    void theJobShowsItsDeadline() {
        String id = submit("{\"prompt\": \"x\", \"deadline_seconds\": 90}");
        JsonNode job = job(id);
        assertThat(job.get("deadline_seconds").asInt()).isEqualTo(90);
        assertThat(Duration.between(
                        Instant.parse(job.get("created_at").asText()),
                        Instant.parse(job.get("deadline_at").asText())))
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(Map.of(
                        "default",
                        job(submit("{\"prompt\": \"y\"}"))
                                .get("deadline_seconds")
                                .asInt()))
                .containsEntry("default", 600);
    }
}
