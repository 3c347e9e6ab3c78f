package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.engine.ProviderRegistry;
import io.idem.core.engine.Reconciler;
import io.idem.postgres.PgReviewStore;
import io.idem.providers.fake.FakeVendorServer;
import io.idem.providers.fake.LedgerEntry;
import io.idem.server.assets.FileAssetStore;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Unknown outcomes are not dead ends: reconcile, the review queue and audited operator decisions. */
class ReviewTest {
    private static TestServer server;
    private static String operator;
    private static String client;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("RECONCILE_INTERVAL_SECONDS", "3600"));
        operator = server.newKey("ops", "operator");
        client = server.newKey("alice", "client");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static String park(TestServer on, String mode) {
        String id = on.post("/v1/jobs", TestServer.ADMIN_KEY, """
                {"prompt": "parked %s", "timeout": 1, "simulate": {"primary": "%s"}}
                """.formatted(mode, mode))
                .body()
                .get("id")
                .asText();
        await().atMost(Duration.ofSeconds(20)).until(() -> state(on, id).equals("manual_review"));
        return id;
    }

    static String state(TestServer on, String id) {
        return job(on, id).get("state").asText();
    }

    static JsonNode job(TestServer on, String id) {
        return on.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
    }

    private static TestServer.Reply resolve(String key, String id, String action, String note) {
        return server.post(
                "/v1/jobs/" + id + "/resolve", key, "{\"action\": \"" + action + "\", \"note\": \"" + note + "\"}");
    }

    private static long billedFor(FakeVendorServer vendor, JsonNode job) {
        Set<String> attempts = new HashSet<>();
        job.get("attempts").forEach(a -> attempts.add(a.get("id").asText()));
        return vendor.ledger().stream()
                .map(LedgerEntry::reference)
                .filter(attempts::contains)
                .count();
    }

    @Test
    void aTimeoutIsParkedThenReconciledToTheVendorsImageAndBilledOnce() {
        String id = park(server, "timeout");
        var queue = server.get("/v1/review-queue", operator).body().get("data");
        assertThat(queue).anySatisfy(item -> {
            assertThat(item.get("id").asText()).isEqualTo(id);
            assertThat(item.get("reason").asText()).isEqualTo("unconfirmed");
        });

        var reconciled = server.post("/v1/jobs/" + id + "/reconcile", operator, null);
        assertThat(reconciled.status()).as(reconciled.raw()).isEqualTo(200);
        assertThat(reconciled.body().get("state").asText()).isEqualTo("succeeded");
        assertThat(reconciled.body().get("result").get("provider").asText()).isEqualTo("primary");
        assertThat(reconciled.body().get("attempts").get(0).get("billable").asText())
                .isEqualTo("yes");
        assertThat(billedFor(server.node().fakes().get("primary"), reconciled.body()))
                .isEqualTo(1);
        String url =
                reconciled.body().get("result").get("images").get(0).get("url").asText();
        assertThat(server.get(url.substring(url.indexOf("/v1/")), null).raw()).startsWith("<svg");
    }

    @Test
    void aLostCallIsReconciledAsNotStartedAndContinuesOnTheBackupWithOneBillInAll() {
        String id = park(server, "lost");
        // The vendor's "never happened" is trusted only once the call's own deadline has passed.
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    server.post("/v1/jobs/" + id + "/reconcile", operator, null);
                    return state(server, id).equals("succeeded");
                });
        JsonNode done = job(server, id);
        assertThat(done.get("result").get("provider").asText()).isEqualTo("backup");
        assertThat(done.get("attempts"))
                .extracting(a ->
                        a.get("provider").asText() + ":" + a.get("billable").asText())
                .containsExactly("primary:no", "backup:yes");
        long billed = billedFor(server.node().fakes().get("primary"), done)
                + billedFor(server.node().fakes().get("backup"), done);
        assertThat(billed).isEqualTo(1);
    }

    @Test
    void eachDecisionEndsAsPromisedAndIsAudited() {
        String retried = park(server, "disconnect");
        var retry = resolve(operator, retried, "retry", "vendor support says it never ran");
        assertThat(retry.status()).as(retry.raw()).isEqualTo(200);
        // a new round: primary may be called once more (and, still disconnecting, parks again)
        await().until(() -> job(server, retried).get("attempts").size() == 2
                && state(server, retried).equals("manual_review"));
        JsonNode afterRetry = job(server, retried);
        assertThat(afterRetry.get("round").asInt()).isEqualTo(2);
        assertThat(afterRetry.get("attempts"))
                .extracting(a -> a.get("status").asText() + "@" + a.get("round").asInt())
                .containsExactly("abandoned@1", "unconfirmed@2");
        assertThat(afterRetry.get("attempts").get(0).get("billable").asText()).isEqualTo("unknown");

        String failed = park(server, "disconnect");
        assertThat(resolve(operator, failed, "fail", "give up").status()).isEqualTo(200);
        assertThat(job(server, failed).get("state").asText()).isEqualTo("failed");
        assertThat(job(server, failed).get("error").get("code").asText()).isEqualTo("operator_failed");

        String confirmed = park(server, "disconnect");
        assertThat(resolve(operator, confirmed, "confirm_result", "seen in the vendor dashboard")
                        .status())
                .isEqualTo(200);
        assertThat(job(server, confirmed).get("state").asText()).isEqualTo("succeeded");
        assertThat(job(server, confirmed).get("attempts").get(0).get("billable").asText())
                .isEqualTo("yes");

        var events = server.get("/v1/jobs/" + failed + "/events", TestServer.ADMIN_KEY)
                .body()
                .get("data");
        JsonNode decision = events.get(events.size() - 1);
        assertThat(decision.get("type").asText()).isEqualTo("job.resolved");
        assertThat(decision.get("actor").asText()).startsWith("key:");
        assertThat(decision.get("detail").get("note").asText()).isEqualTo("give up");
        assertThat(decision.get("detail").get("action").asText()).isEqualTo("fail");
    }

    @Test
    void operatorsOnlyAndOnlyForParkedJobs() {
        String id = park(server, "disconnect");
        assertThat(resolve(client, id, "fail", "x").status()).isEqualTo(403);
        assertThat(server.post("/v1/jobs/" + id + "/reconcile", client, null).status())
                .isEqualTo(403);
        assertThat(server.get("/v1/review-queue", client).status()).isEqualTo(403);
        assertThat(resolve(operator, id, "explode", "x").status()).isEqualTo(400);
        assertThat(resolve(operator, id, "fail", "").status()).isEqualTo(400);
        assertThat(resolve(operator, id, "fail", "done").status()).isEqualTo(200);
        var again = resolve(operator, id, "fail", "again");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.body().get("error").get("code").asText()).isEqualTo("job_not_in_review");
    }

    @Test
    void aVendorWithoutPollStaysInReviewUntilAnOperatorDecides() {
        try (FakeVendorServer vendor = FakeVendorServer.start(0);
                TestServer noPoll = TestServer.start(Map.of("PROVIDERS_JSON", """
                        {"providers": {"primary": {"adapter": "fake", "base_url": "%s", "poll": false}}}
                        """.formatted(vendor.baseUrl())))) {
            String id = park(noPoll, "timeout");
            String ops = noPoll.newKey("ops", "operator");
            var reconciled = noPoll.post("/v1/jobs/" + id + "/reconcile", ops, null);
            assertThat(reconciled.body().get("reconcile").asText()).isEqualTo("unchanged");
            noPoll.node().reconciler().sweepOnce();
            assertThat(state(noPoll, id)).isEqualTo("manual_review");
            noPoll.post("/v1/jobs/" + id + "/resolve", ops, "{\"action\": \"confirm_result\", \"note\": \"checked\"}");
            assertThat(state(noPoll, id)).isEqualTo("succeeded");
        }
    }

    @Test
    void twoNodesSweepingAtOnceNeverPromoteAJobTwice() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ids.add(server.post(
                            "/v1/jobs",
                            TestServer.ADMIN_KEY,
                            "{\"prompt\": \"sweep\", \"timeout\": 1, \"simulate\": {\"primary\": \"timeout\"}}")
                    .body()
                    .get("id")
                    .asText());
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> ids.stream().allMatch(id -> state(server, id).equals("manual_review")));
        var store = new PgReviewStore(server.node().database());
        var assets = new FileAssetStore(Files.createTempDirectory("assets"));
        ProviderRegistry registry = registryOf(server);
        List<Reconciler> nodes = List.of(
                new Reconciler(
                        store,
                        registry,
                        assets,
                        Clock.systemUTC(),
                        Duration.ofSeconds(1),
                        Duration.ofDays(1),
                        () -> {}),
                new Reconciler(
                        store,
                        registry,
                        assets,
                        Clock.systemUTC(),
                        Duration.ofSeconds(1),
                        Duration.ofDays(1),
                        () -> {}));
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            List<Future<Integer>> sweeps = new ArrayList<>();
            nodes.forEach(n -> sweeps.add(pool.submit(n::sweepOnce)));
            int moved = 0;
            for (Future<Integer> sweep : sweeps) {
                moved += sweep.get();
            }
            assertThat(moved).isGreaterThanOrEqualTo(ids.size());
        }
        for (String id : ids) {
            var events = server.get("/v1/jobs/" + id + "/events", TestServer.ADMIN_KEY)
                    .body()
                    .get("data");
            List<String> types = new ArrayList<>();
            events.forEach(e -> types.add(e.get("type").asText()));
            assertThat(types).filteredOn("job.reconciled"::equals).hasSize(1);
            assertThat(state(server, id)).isEqualTo("succeeded");
        }
    }

    @Test
    void aJobPastTheReconcileAgeStaysForAnOperatorAsExpired() throws Exception {
        String id = park(server, "timeout");
        var expiring = new Reconciler(
                new PgReviewStore(server.node().database()),
                registryOf(server),
                new FileAssetStore(Files.createTempDirectory("assets")),
                Clock.systemUTC(),
                Duration.ofSeconds(1),
                Duration.ZERO,
                () -> {});
        assertThat(expiring.reconcileNow(java.util.UUID.fromString(id), "test")).isEqualTo(Reconciler.Verdict.EXPIRED);
        JsonNode parked = job(server, id);
        assertThat(parked.get("state").asText()).isEqualTo("manual_review");
        assertThat(parked.get("review").get("reason").asText()).isEqualTo("reconcile_expired");
        assertThat(resolve(operator, id, "confirm_result", "checked by hand").status())
                .isEqualTo(200);
    }

    private static ProviderRegistry registryOf(TestServer on) {
        return new ProviderRegistry(
                Map.of(
                        "primary",
                        new ProviderRegistry.Provider(
                                settingsOf(on, "primary"),
                                io.idem.providers.Adapters.create(
                                        settingsOf(on, "primary"), java.time.InstantSource.system()))),
                io.idem.core.text.Redactor.shapesOnly());
    }

    private static io.idem.core.provider.ProviderSettings settingsOf(TestServer on, String name) {
        return new io.idem.core.provider.ProviderSettings(
                name,
                "fake",
                on.node().fakes().get(name).baseUrl(),
                java.util.Optional.empty(),
                "fake-image-v1",
                Map.of(),
                Duration.ofSeconds(2),
                new java.math.BigDecimal("0.04"),
                true);
    }
}
