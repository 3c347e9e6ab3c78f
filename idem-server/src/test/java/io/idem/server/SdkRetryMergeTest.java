package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests without {@code Idempotency-Key}: an SDK's retry ({@code x-stainless-retry-count ≥ 1})
 * of the same body from the same key within its window is the same job; first attempts, other
 * bodies, other keys and late retries are new jobs; a key's {@code dedupe_window} merges any
 * keyless repeat.
 */
class SdkRetryMergeTest {
    private static final String ADMIN = TestServer.ADMIN_KEY;
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Map<String, String> attempt(int retryCount, String timeoutSeconds) {
        Map<String, String> headers = new HashMap<>();
        headers.put("x-stainless-retry-count", Integer.toString(retryCount));
        if (timeoutSeconds != null) {
            headers.put("x-stainless-timeout", timeoutSeconds);
        }
        return headers;
    }

    private static TestServer.Reply job(TestServer on, String key, String prompt, Map<String, String> headers) {
        return on.send("POST", "/v1/jobs", key, "{\"prompt\":\"" + prompt + "\"}", headers);
    }

    static long jobsWithPrompt(TestServer on, String prompt) {
        return on.node().database().withConnection(c -> {
            try (var ps = c.prepareStatement("SELECT count(*) FROM jobs WHERE prompt = ?")) {
                ps.setString(1, prompt);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    @Test
    void anSdkRetryOfTheSameBodyIsTheSameJobWithTheOriginalRequestId() {
        var first = job(server, ADMIN, "merge me", attempt(0, "3"));
        var retry = job(server, ADMIN, "merge me", attempt(1, "3"));
        assertThat(first.status()).isEqualTo(202);
        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(retry.body().get("id").asText())
                .isEqualTo(first.body().get("id").asText());
        assertThat(retry.header("X-Request-Id")).isEqualTo(first.header("X-Request-Id"));
        assertThat(retry.header("x-should-retry")).isEqualTo("false");
        assertThat(jobsWithPrompt(server, "merge me")).isEqualTo(1);
    }

    @Test
    void aPythonStyleReadTimeoutCountsToo() {
        var first = server.send(
                "POST",
                "/v1/jobs",
                ADMIN,
                "{\"prompt\":\"python merge\"}",
                Map.of("x-stainless-retry-count", "0", "x-stainless-read-timeout", "600.0"));
        var retry = server.send(
                "POST",
                "/v1/jobs",
                ADMIN,
                "{\"prompt\":\"python merge\"}",
                Map.of("x-stainless-retry-count", "1", "x-stainless-read-timeout", "600.0"));
        assertThat(retry.body().get("id").asText())
                .isEqualTo(first.body().get("id").asText());
    }

    @Test
    void twoFirstAttemptsAreTwoLogicalCallsAndTwoJobs() {
        var one = job(server, ADMIN, "twice on purpose", attempt(0, "600"));
        var two = job(server, ADMIN, "twice on purpose", attempt(0, "600"));
        assertThat(one.status()).isEqualTo(202);
        assertThat(two.status()).isEqualTo(202);
        assertThat(two.body().get("id").asText())
                .isNotEqualTo(one.body().get("id").asText());
        var retry = job(server, ADMIN, "twice on purpose", attempt(1, "600"));
        assertThat(retry.body().get("id").asText())
                .as("a retry belongs to the latest first attempt")
                .isEqualTo(two.body().get("id").asText());
    }

    @Test
    void aRetryWithAnotherBodyIsNotMerged() {
        job(server, ADMIN, "body one", attempt(0, "600"));
        var other = job(server, ADMIN, "body two", attempt(1, "600"));
        assertThat(other.status()).isEqualTo(202);
        assertThat(other.header("Idempotent-Replayed")).isNull();
    }

    @Test
    void aRetryFromAnotherKeyIsNotMerged() {
        String other = server.newKey("admin", "admin");
        var first = job(server, ADMIN, "same owner, other key", attempt(0, "600"));
        var retry = job(server, other, "same owner, other key", attempt(1, "600"));
        assertThat(retry.status()).isEqualTo(202);
        assertThat(retry.body().get("id").asText())
                .isNotEqualTo(first.body().get("id").asText());
    }

    @Test
    void aRequestWithoutRetryHeadersIsNeverMergedWithoutTheKeysOptIn() {
        var one = job(server, ADMIN, "plain client", Map.of());
        var two = job(server, ADMIN, "plain client", Map.of());
        assertThat(two.status()).isEqualTo(202);
        assertThat(two.body().get("id").asText())
                .isNotEqualTo(one.body().get("id").asText());
    }

    @Test
    void aMalformedRetryHeaderIsA400AndCreatesNothing() {
        var bad = job(server, ADMIN, "bad retry header", Map.of("x-stainless-retry-count", "one"));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().at("/error/code").asText()).isEqualTo("invalid_retry_header");
        var badTimeout = job(
                server, ADMIN, "bad retry header", Map.of("x-stainless-retry-count", "1", "x-stainless-timeout", "-3"));
        assertThat(badTimeout.status()).isEqualTo(400);
        assertThat(jobsWithPrompt(server, "bad retry header")).isZero();
    }

    @Test
    void concurrentIdenticalRetriesMakeOneJob() throws Exception {
        int threads = 12;
        List<TestServer.Reply> done = Race.of(threads, () -> job(server, ADMIN, "racing retries", attempt(1, "600")));
        assertThat(done.stream().filter(r -> r.status() == 202)).hasSize(1);
        assertThat(done.stream().filter(r -> r.status() == 200)).hasSize(threads - 1);
        assertThat(done.stream().map(r -> r.body().get("id").asText()).distinct())
                .hasSize(1);
        assertThat(jobsWithPrompt(server, "racing retries")).isEqualTo(1);
    }

    @Test
    void anImagesRetryWaitsForTheSameJob() {
        String body = "{\"prompt\":\"images merge\"}";
        var first = server.send("POST", "/v1/images/generations", ADMIN, body, attempt(0, "600"));
        var retry = server.send("POST", "/v1/images/generations", ADMIN, body, attempt(1, "600"));
        // 200 when the job ends within the route's wait, else 202: either way one job, one answer.
        assertThat(retry.status()).isIn(200, 202);
        assertThat(retry.header("Idem-Job-Id")).isNotNull().isEqualTo(first.header("Idem-Job-Id"));
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(retry.header("X-Request-Id")).isEqualTo(first.header("X-Request-Id"));
    }

    @Test
    void aReplayWithAnIdempotencyKeyAnswersWithTheOriginalRequestId() {
        Map<String, String> key = Map.of("Idempotency-Key", "merge-request-id");
        var first = job(server, ADMIN, "explicit key request id", key);
        var again = job(server, ADMIN, "explicit key request id", key);
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.header("X-Request-Id")).isEqualTo(first.header("X-Request-Id"));
    }

    @Test
    void aKeysDedupeWindowMergesAnyKeylessRepeat() {
        var created = server.post(
                "/v1/admin/keys", ADMIN, "{\"owner\":\"dedupe-owner\",\"role\":\"client\",\"dedupe_window\":60}");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        assertThat(created.body().get("dedupe_window").asInt()).isEqualTo(60);
        String key = created.body().get("key").asText();
        var one = job(server, key, "opted in", Map.of());
        var two = job(server, key, "opted in", Map.of());
        assertThat(two.status()).isEqualTo(200);
        assertThat(two.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(two.body().get("id").asText()).isEqualTo(one.body().get("id").asText());
        assertThat(job(server, key, "opted in, other body", Map.of()).status()).isEqualTo(202);
    }

    @Test
    void aKeysDedupeWindowEndsAndCanBeCleared() throws Exception {
        var created = server.post("/v1/admin/keys", ADMIN, "{\"owner\":\"short-dedupe\",\"role\":\"client\"}");
        String id = created.body().get("id").asText();
        String key = created.body().get("key").asText();
        var set = server.send("PATCH", "/v1/admin/keys/" + id, ADMIN, "{\"dedupe_window\":1}", Map.of());
        assertThat(set.body().get("dedupe_window").asInt()).isEqualTo(1);
        var one = job(server, key, "short window", Map.of());
        Thread.sleep(1_300);
        var late = job(server, key, "short window", Map.of());
        assertThat(late.status()).as("the window passed").isEqualTo(202);
        assertThat(late.body().get("id").asText())
                .isNotEqualTo(one.body().get("id").asText());
        var cleared = server.send("PATCH", "/v1/admin/keys/" + id, ADMIN, "{\"dedupe_window\":null}", Map.of());
        assertThat(cleared.body().get("dedupe_window").isNull()).isTrue();
        assertThat(job(server, key, "short window", Map.of()).status()).isEqualTo(202);
    }

    @Test
    void aBadDedupeWindowIsA400AndChangesNothing() {
        for (String bad : List.of("0", "-1", "1.5", "\"60\"", "86401")) {
            var refused = server.post(
                    "/v1/admin/keys",
                    ADMIN,
                    "{\"owner\":\"bad-dedupe\",\"role\":\"client\",\"dedupe_window\":" + bad + "}");
            assertThat(refused.status()).as(bad).isEqualTo(400);
            assertThat(refused.body().at("/error/code").asText()).isEqualTo("invalid_dedupe_window");
        }
        assertThat(server.get("/v1/admin/keys", ADMIN).body().get("data").findValuesAsText("owner"))
                .doesNotContain("bad-dedupe");
    }

    @Test
    void aRetryPastTheMaximumWindowIsANewJob() throws Exception {
        try (TestServer capped = TestServer.start(
                Map.of("IDEM_SDK_RETRY_MAX_WINDOW_SECONDS", "1", "IDEM_SDK_RETRY_WINDOW_SECONDS", "1"))) {
            var first = job(capped, ADMIN, "capped", attempt(0, "600"));
            var soon = job(capped, ADMIN, "capped", attempt(1, "600"));
            assertThat(soon.body().get("id").asText())
                    .isEqualTo(first.body().get("id").asText());
            Thread.sleep(1_300);
            var late = job(capped, ADMIN, "capped", attempt(2, "600"));
            assertThat(late.status()).as("600 s announced, but the cap is 1 s").isEqualTo(202);
            assertThat(jobsWithPrompt(capped, "capped")).isEqualTo(2);
        }
    }

    @Test
    void withoutAnAnnouncedTimeoutTheDefaultWindowCountsPerAttempt() throws Exception {
        try (TestServer quick = TestServer.start(Map.of("IDEM_SDK_RETRY_WINDOW_SECONDS", "1"))) {
            var first = job(quick, ADMIN, "default window", attempt(0, null));
            Thread.sleep(1_300);
            var late = job(quick, ADMIN, "default window", attempt(1, null));
            assertThat(late.status()).as("one attempt's default span passed").isEqualTo(202);
            var second = job(quick, ADMIN, "default window", attempt(2, null));
            assertThat(second.body().get("id").asText())
                    .isEqualTo(late.body().get("id").asText())
                    .isNotEqualTo(first.body().get("id").asText());
        }
    }
}
