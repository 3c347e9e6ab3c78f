package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class IdempotencyTest {
    private static TestServer server;
    private static final String BODY = "{\"prompt\": \"A lighthouse\", \"simulate\": {\"primary\": \"slow:200\"}}";

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static TestServer.Reply post(String key, String idempotencyKey, String body) {
        return server.send("POST", "/v1/jobs", key, body, Map.of("Idempotency-Key", idempotencyKey));
    }

    private static int jobCount() {
        return server.node().database().withConnection(c -> {
            try (var rs = c.createStatement().executeQuery("SELECT count(*) FROM jobs")) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }

    private static List<TestServer.Reply> concurrently(List<Callable<TestServer.Reply>> calls) throws Exception {
        List<TestServer.Reply> replies = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(25)) {
            for (Future<TestServer.Reply> f : pool.invokeAll(calls)) {
                replies.add(f.get());
            }
        }
        return replies;
    }

    @Test
    void fiftyConcurrentPostsWithOneKeyAndOneBodyMakeExactlyOneJob() throws Exception {
        int before = jobCount();
        List<Callable<TestServer.Reply>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            calls.add(() -> post(TestServer.ADMIN_KEY, "same-key-1", BODY));
        }
        List<TestServer.Reply> replies = concurrently(calls);
        assertThat(replies).filteredOn(r -> r.status() == 202).hasSize(1);
        assertThat(replies)
                .filteredOn(r -> r.status() == 200)
                .hasSize(49)
                .allSatisfy(r -> assertThat(r.header("Idempotent-Replayed")).isEqualTo("true"));
        assertThat(replies.stream().map(r -> r.body().get("id").asText()).distinct())
                .hasSize(1);
        assertThat(jobCount()).isEqualTo(before + 1);
    }

    @Test
    void withTwoBodiesTheLoserGets409() throws Exception {
        List<Callable<TestServer.Reply>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String body = i % 2 == 0 ? BODY : BODY.replace("A lighthouse", "A harbour");
            calls.add(() -> post(TestServer.ADMIN_KEY, "same-key-2", body));
        }
        List<TestServer.Reply> replies = concurrently(calls);
        assertThat(replies).filteredOn(r -> r.status() == 202).hasSize(1);
        assertThat(replies).filteredOn(r -> r.status() == 200).hasSize(9);
        assertThat(replies)
                .filteredOn(r -> r.status() == 409)
                .hasSize(10)
                .allSatisfy(r ->
                        assertThat(r.body().get("error").get("code").asText()).isEqualTo("idempotency_key_reused"));
    }

    @Test
    void aReplayReturnsTheOriginalJobWithItsCallCountUnchanged() {
        var first = post(TestServer.ADMIN_KEY, "same-key-3", BODY);
        org.awaitility.Awaitility.await()
                .until(() -> server.get("/v1/jobs/" + first.body().get("id").asText(), TestServer.ADMIN_KEY)
                        .body()
                        .get("state")
                        .asText()
                        .equals("succeeded"));
        var replay = post(TestServer.ADMIN_KEY, "same-key-3", BODY);
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.body().get("id")).isEqualTo(first.body().get("id"));
        assertThat(replay.body().get("provider_calls").asInt()).isEqualTo(1);
    }

    @Test
    void keysAreScopedToTheirOwner() {
        String alice = server.newKey("alice", "client");
        String bob = server.newKey("bob", "client");
        var a = post(alice, "shared-key", BODY);
        var b = post(bob, "shared-key", BODY);
        assertThat(a.status()).isEqualTo(202);
        assertThat(b.status()).isEqualTo(202);
        assertThat(a.body().get("id")).isNotEqualTo(b.body().get("id"));
    }

    @Test
    void theRawKeyIsNeverStored() {
        post(TestServer.ADMIN_KEY, "very-secret-idempotency-key", BODY);
        String dump = server.node().database().withConnection(c -> {
            try (var rs = c.createStatement()
                    .executeQuery("SELECT string_agg(encode(digest, 'escape') || owner, ',') FROM idempotency_keys")) {
                rs.next();
                return rs.getString(1);
            }
        });
        assertThat(dump).doesNotContain("very-secret-idempotency-key");
    }
}
