package io.idem.server.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.spi.EventSource;
import io.idem.server.TestServer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code GET /v1/events} and {@code GET /v1/chat/attempts} on a real node over a real mix: jobs
 * that succeed, fail over, fail and are parked and resolved, a vendor rate limit, chat calls that
 * fall back, from two clients. Filters, exact paging, scoping by role, and strict parameters.
 */
class EventsApiTest {
    private static final String CHAT_PROMPT = "please keep this prompt private";
    private static TestServer server;
    private static String alice;
    private static String bob;
    private static String operator;
    private static final List<String> aliceJobs = new ArrayList<>();
    private static final List<String> bobJobs = new ArrayList<>();
    private static String resolved;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("RECONCILE_INTERVAL_SECONDS", "3600"));
        alice = server.newKey("alice", "client");
        bob = server.newKey("bob", "client");
        operator = server.newKey("ops", "operator");
        aliceJobs.add(settle(alice, "{\"prompt\": \"ok\"}"));
        aliceJobs.add(settle(alice, "{\"prompt\": \"over\", \"simulate\": {\"primary\": \"http_503\"}}"));
        aliceJobs.add(settle(alice, "{\"prompt\": \"bad\", \"simulate\": {\"primary\": \"user_error\"}}"));
        resolved = settle(alice, "{\"prompt\": \"lost\", \"simulate\": {\"primary\": \"disconnect\"}}");
        aliceJobs.add(resolved);
        bobJobs.add(settle(bob, "{\"prompt\": \"ok\"}"));
        bobJobs.add(settle(bob, "{\"prompt\": \"over\", \"simulate\": {\"primary\": \"http_503\"}}"));
        for (String key : List.of(alice, bob)) {
            var chat = server.post("/v1/chat/completions", key, """
                    {"models": ["fake-chat-a", "fake-chat-b"], "redundancy": {"retries": 0}, "simulate": {"fake-chat-a": "http_503"},
                     "messages": [{"role": "user", "content": "%s"}]}""".formatted(CHAT_PROMPT));
            assertThat(chat.status()).as(chat.raw()).isEqualTo(200);
        }
        var decision = server.post(
                "/v1/jobs/" + resolved + "/resolve",
                operator,
                "{\"action\": \"fail\", \"note\": \"no image on the invoice\"}");
        assertThat(decision.status()).as(decision.raw()).isEqualTo(200);
        // last: it closes the primary for a second
        aliceJobs.add(settle(alice, "{\"prompt\": \"limited\", \"simulate\": {\"primary\": \"rate_limited:1\"}}"));
        server.awaitChatAudit();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String settle(String key, String body) {
        var reply = server.post("/v1/jobs", key, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
        String id = reply.body().get("id").asText();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> server.get("/v1/jobs/" + id, key)
                        .body()
                        .get("state")
                        .asText()
                        .matches("succeeded|failed|manual_review"));
        return id;
    }

    private static JsonNode read(String path, String key) {
        var reply = server.get(path, key);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.raw()).doesNotContain(TestServer.ADMIN_KEY, alice, bob, operator, CHAT_PROMPT);
        return reply.body();
    }

    private static List<JsonNode> data(String path, String key) {
        List<JsonNode> out = new ArrayList<>();
        read(path, key).get("data").forEach(out::add);
        return out;
    }

    /** Every page of {@code path} at {@code limit} a page, concatenated. */
    private static List<JsonNode> pages(String path, String key, int limit) {
        List<JsonNode> all = new ArrayList<>();
        String cursor = null;
        String glue = path.contains("?") ? "&" : "?";
        for (int i = 0; i < 500; i++) {
            JsonNode page = read(path + glue + "limit=" + limit + (cursor == null ? "" : "&cursor=" + cursor), key);
            assertThat(page.get("data").size()).isLessThanOrEqualTo(limit);
            page.get("data").forEach(all::add);
            if (page.get("next_cursor").isNull()) {
                return all;
            }
            cursor = page.get("next_cursor").asText();
        }
        throw new AssertionError("paging never ended");
    }

    private static List<String> ids(List<JsonNode> events) {
        return events.stream().map(e -> e.get("id").asText()).toList();
    }

    private static Set<String> types(List<JsonNode> events) {
        Set<String> out = new HashSet<>();
        events.forEach(e -> out.add(e.get("type").asText()));
        return out;
    }

    @Test
    void anAdminSeesTheWholeMixInOneUniformShapeNewestFirst() {
        List<JsonNode> all = data("/v1/events?limit=200", TestServer.ADMIN_KEY);
        assertThat(types(all))
                .contains(
                        "job.created",
                        "job.succeeded",
                        "attempt.failed_over",
                        "job.failed",
                        "job.manual_review",
                        "job.resolved",
                        "api:model_failover",
                        "provider.rate_limited");
        assertThat(EventSource.allTypes())
                .as("every type stored is a known filter")
                .containsAll(types(all));
        assertThat(all)
                .allSatisfy(e -> assertThat(e.fieldNames())
                        .toIterable()
                        .containsExactly("id", "source", "type", "at", "job_id", "provider", "model", "data"));
        for (int i = 1; i < all.size(); i++) {
            assertThat(Instant.parse(all.get(i).get("at").asText()))
                    .isBeforeOrEqualTo(Instant.parse(all.get(i - 1).get("at").asText()));
        }
        JsonNode failover = all.stream()
                .filter(e -> e.get("type").asText().equals("api:model_failover"))
                .findFirst()
                .orElseThrow();
        assertThat(failover.get("provider").asText()).isEqualTo("primary");
        assertThat(failover.get("model").asText()).isEqualTo("fake-chat-a");
        assertThat(failover.get("data").get("to_model").asText()).isEqualTo("fake-chat-b");
        assertThat(data("/v1/events?limit=200", operator)).hasSameSizeAs(all);
    }

    @Test
    void pagesNeitherRepeatNorSkipAnEvent() {
        List<String> whole = ids(data("/v1/events?limit=200", TestServer.ADMIN_KEY));
        assertThat(whole.size()).isGreaterThan(20).isLessThan(200);
        for (int limit : List.of(1, 7, 50)) {
            List<String> paged = ids(pages("/v1/events", TestServer.ADMIN_KEY, limit));
            assertThat(paged).as("limit " + limit).doesNotHaveDuplicates().isEqualTo(whole);
        }
        List<String> filtered = ids(data("/v1/events?provider=backup&limit=200", TestServer.ADMIN_KEY));
        assertThat(ids(pages("/v1/events?provider=backup", TestServer.ADMIN_KEY, 2)))
                .isEqualTo(filtered);
    }

    @Test
    void filtersByTypeProviderJobAndTime() {
        List<JsonNode> decisions = data("/v1/events?type=job.resolved", TestServer.ADMIN_KEY);
        assertThat(decisions).singleElement().satisfies(e -> {
            assertThat(e.get("job_id").asText()).isEqualTo(resolved);
            assertThat(e.get("data").get("note").asText()).isEqualTo("no image on the invoice");
            assertThat(e.get("data").get("action").asText()).isEqualTo("fail");
            assertThat(e.get("data").get("actor").asText()).startsWith("key:");
        });
        List<String> comma = ids(data("/v1/events?type=job.failed,job.resolved&limit=200", TestServer.ADMIN_KEY));
        List<String> repeated =
                ids(data("/v1/events?type=job.failed&type=job.resolved&limit=200", TestServer.ADMIN_KEY));
        assertThat(comma).isEqualTo(repeated).hasSize(2);

        assertThat(data("/v1/events?provider=backup&limit=200", TestServer.ADMIN_KEY))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.get("provider").asText()).isEqualTo("backup"));
        String job = aliceJobs.get(1);
        List<JsonNode> trace = data("/v1/events?job_id=" + job, TestServer.ADMIN_KEY);
        assertThat(trace).allSatisfy(e -> assertThat(e.get("job_id").asText()).isEqualTo(job));
        assertThat(types(trace)).contains("job.created", "attempt.failed_over", "job.succeeded");

        List<JsonNode> all = data("/v1/events?limit=200", TestServer.ADMIN_KEY);
        String middle = all.get(all.size() / 2).get("at").asText();
        String since = URLEncoder.encode(middle, StandardCharsets.UTF_8);
        List<JsonNode> later = data("/v1/events?limit=200&since=" + since, TestServer.ADMIN_KEY);
        List<JsonNode> earlier = data("/v1/events?limit=200&until=" + since, TestServer.ADMIN_KEY);
        assertThat(later)
                .allSatisfy(
                        e -> assertThat(Instant.parse(e.get("at").asText())).isAfterOrEqualTo(Instant.parse(middle)));
        assertThat(earlier)
                .allSatisfy(e -> assertThat(Instant.parse(e.get("at").asText())).isBefore(Instant.parse(middle)));
        assertThat(later.size() + earlier.size()).isEqualTo(all.size());
    }

    @Test
    void aClientSeesOnlyItsOwnJobsAndCallsAndNoProviderEvents() {
        List<JsonNode> mine = pages("/v1/events", alice, 5);
        assertThat(mine).isNotEmpty();
        assertThat(mine).allSatisfy(e -> {
            assertThat(e.get("source").asText()).isIn("job", "audit", "budget");
            if (!e.get("job_id").isNull()) {
                assertThat(aliceJobs).contains(e.get("job_id").asText());
            }
        });
        assertThat(types(mine)).contains("job.resolved", "api:model_failover").doesNotContain("provider.rate_limited");
        Set<String> aliceCalls = new HashSet<>();
        data("/v1/chat/attempts", alice)
                .forEach(a -> aliceCalls.add(a.get("call_id").asText()));
        assertThat(mine.stream().filter(e -> e.get("type").asText().equals("api:model_failover")))
                .singleElement()
                .satisfies(e -> assertThat(aliceCalls)
                        .contains(e.get("data").get("call_id").asText()));
        assertThat(data("/v1/events?job_id=" + bobJobs.get(0), alice)).isEmpty();
        assertThat(data("/v1/events?type=provider.rate_limited", alice)).isEmpty();
        assertThat(pages("/v1/events", bob, 50))
                .allSatisfy(e ->
                        assertThat(aliceJobs).doesNotContain(e.get("job_id").asText()));
    }

    @Test
    void chatAttemptsAreReadableWithoutPromptsAndScopedToTheirOwner() {
        List<JsonNode> mine = data("/v1/chat/attempts", alice);
        assertThat(mine)
                .hasSize(2)
                .allSatisfy(a -> assertThat(a.get("owner").asText()).isEqualTo("alice"));
        assertThat(mine)
                .extracting(
                        a -> a.get("model").asText() + ":" + a.get("outcome").asText())
                .containsExactly("fake-chat-b:served", "fake-chat-a:unavailable");
        assertThat(mine.getFirst().get("completion_tokens").asLong()).isPositive();
        String bobsCall =
                data("/v1/chat/attempts", bob).getFirst().get("call_id").asText();
        assertThat(data("/v1/chat/attempts?call_id=" + bobsCall, alice)).isEmpty();
        assertThat(data("/v1/chat/attempts?call_id=" + bobsCall, TestServer.ADMIN_KEY))
                .hasSize(2);
        assertThat(data("/v1/chat/attempts?provider=backup&limit=200", TestServer.ADMIN_KEY))
                .hasSize(2)
                .allSatisfy(a -> assertThat(a.get("provider").asText()).isEqualTo("backup"));
        assertThat(ids(pages("/v1/chat/attempts", TestServer.ADMIN_KEY, 1)))
                .doesNotHaveDuplicates()
                .hasSize(4);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "/v1/events?type=job.made_up, invalid_type",
        "/v1/events?type=job.created&type=nope, invalid_type",
        "/v1/events?type=job.created%2C, invalid_type",
        "/v1/events?limit=0, invalid_limit",
        "/v1/events?limit=201, invalid_limit",
        "/v1/events?limit=1&limit=2, repeated_parameter",
        "/v1/events?since=yesterday, invalid_since",
        "/v1/events?until=1969-12-31T23:59:59Z, invalid_until",
        "/v1/events?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z, invalid_time_range",
        "/v1/events?job_id=1-1-1-1-1, invalid_job_id",
        "/v1/events?provider=Primary, invalid_provider",
        "/v1/events?cursor=bm90LWEtY3Vyc29y, invalid_cursor",
        "/v1/events?cursor=MjAyNi0wMS0wMVQwMDowMDowMFp8am9ifDA, invalid_cursor",
        "/v1/events?state=queued, unknown_parameter",
        "/v1/chat/attempts?call_id=x, invalid_call_id",
        "/v1/chat/attempts?cursor=%2B%2B%2B, invalid_cursor",
        "/v1/chat/attempts?type=job.created, unknown_parameter",
    })
    void badParametersAreRefusedWithTheirCode(String path, String code) {
        var reply = server.get(path, alice);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(400);
        assertThat(reply.body().get("error").get("code").asText()).isEqualTo(code);
        assertThat(reply.body().get("error").get("request_id").asText()).isNotBlank();
    }

    @Test
    void bothReadsNeedAKey() {
        assertThat(server.get("/v1/events", null).status()).isEqualTo(401);
        assertThat(server.get("/v1/chat/attempts", null).status()).isEqualTo(401);
    }
}
