package io.idem.server.webhooks;

import static io.idem.server.webhooks.WebhookNodes.ADMIN;
import static io.idem.server.webhooks.WebhookNodes.deliveries;
import static io.idem.server.webhooks.WebhookNodes.job;
import static io.idem.server.webhooks.WebhookNodes.state;
import static io.idem.server.webhooks.WebhookNodes.subscribed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.webhook.EventType;
import io.idem.postgres.PgBreakerStore;
import io.idem.postgres.TestDatabases;
import io.idem.server.TestServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Event webhooks end to end on two nodes that share one database, against a receiver that checks
 * every signature: each event type reaches a subscription, a receiver that fails sees the retries
 * and the log counts them, each delivery arrives once while both nodes stay up, client keys hear of
 * their own jobs only, a job's callback_url is signed with its key's callback secret, and a deleted
 * subscription hears nothing more.
 */
class WebhooksTest {
    private static final Duration WITHIN = Duration.ofSeconds(40);
    private static WebhookNodes.HealthSwitch flaky;
    private static WebhookReceiver receiver;
    private static TestServer nodeA;
    private static TestServer nodeB;

    @BeforeAll
    static void start() {
        flaky = new WebhookNodes.HealthSwitch();
        receiver = WebhookReceiver.start();
        String db = TestDatabases.freshUrl();
        nodeA = TestServer.start(WebhookNodes.env(db, "node-a", flaky));
        nodeB = TestServer.start(WebhookNodes.env(db, "node-b", flaky));
    }

    @AfterAll
    static void stop() {
        nodeB.close();
        nodeA.close();
        receiver.close();
        flaky.close();
    }

    @Test
    void everyEventTypeReachesAnAdminSubscriptionSignedAndShapedAsDocumented() {
        String subscription = subscribed(nodeA, ADMIN, receiver, "/every", "*");
        String succeeded = job(nodeA, ADMIN, "{\"prompt\": \"every type\", \"metadata\": {\"order\": 7}}");
        String failed = job(nodeB, ADMIN, "{\"prompt\": \"x\", \"simulate\": {\"primary\": \"user_error\"}}");
        String parked =
                job(nodeA, ADMIN, "{\"prompt\": \"x\", \"timeout\": 1, \"simulate\": {\"primary\": \"timeout\"}}");
        String canceled = canceledJob();
        chat(
                nodeA,
                "\"model\": \"fake-chat-a\", \"fallback_models\": [\"fake-chat-b\"],"
                        + " \"simulate\": {\"fake-chat-a\": \"http_503\"}");
        chat(nodeB, "\"model\": \"static\"");
        spendAKeysBudget();
        moveABreaker("elsewhere");
        Instant now = Instant.now();
        assertThat(new PgBreakerStore(nodeA.node().database())
                        .unusable("spent", now.plusSeconds(300), "insufficient_quota (HTTP 429)", "test", now))
                .isPresent();
        flaky.healthy(false);
        nodeA.node().sentinel().checkAll();
        flaky.healthy(true);
        nodeB.node().sentinel().checkAll();

        Set<String> every =
                Arrays.stream(EventType.values()).map(EventType::wire).collect(Collectors.toSet());
        await().atMost(WITHIN).untilAsserted(() -> assertThat(types("/every")).containsAll(every));
        assertThat(receiver.at("/every"))
                .allSatisfy(r -> assertThat(r.signedRight()).as(r.body()).isTrue());

        Map<String, JsonNode> jobs = byJob(receiver.at("/every"));
        JsonNode done = jobs.get(succeeded + "/job.succeeded");
        assertThat(done.get("id").asText()).startsWith("evt_");
        assertThat(done.get("timestamp").asText()).endsWith("Z");
        assertThat(done.at("/data/state").asText()).isEqualTo("succeeded");
        assertThat(done.at("/data/previous_state").asText()).isEqualTo("running");
        assertThat(done.at("/data/trace_type").asText()).isEqualTo("job.succeeded");
        assertThat(done.at("/data/metadata/order").asInt()).isEqualTo(7);
        assertThat(done.at("/data/owner").asText()).isNotBlank();
        assertThat(done.at("/data/detail/provider").asText()).isEqualTo("primary");
        assertThat(jobs.get(failed + "/job.failed").at("/data/detail/code").asText())
                .isNotBlank();
        assertThat(jobs).containsKey(parked + "/job.manual_review").containsKey(canceled + "/job.canceled");
        JsonNode failover = first("/every", "api:model_failover");
        assertThat(failover.at("/data/from_model").asText()).isEqualTo("fake-chat-a");
        assertThat(failover.at("/data/to_model").asText()).isEqualTo("fake-chat-b");
        assertThat(first("/every", "tier.static_active").at("/data/provider").asText())
                .isEqualTo("canned");
        assertThat(first("/every", "budget.exhausted").at("/data/period").asText())
                .isEqualTo("day");
        // the unusable provider's breaker opens too: its event may arrive first
        assertThat(receiver.at("/every").stream()
                        .filter(r -> r.type().equals("breaker.opened"))
                        .map(r -> r.json().at("/data/provider").asText()))
                .contains("elsewhere", "spent");
        assertThat(first("/every", "breaker.closed").at("/data/from").asText()).isEqualTo("half_open");
        assertThat(first("/every", "provider.unhealthy").at("/data/provider").asText())
                .isEqualTo("flaky");
        assertThat(first("/every", "provider.recovered").at("/data/node").asText())
                .isEqualTo("node-b");
        JsonNode unusable = first("/every", "provider.unusable");
        assertThat(unusable.at("/data/provider").asText()).isEqualTo("spent");
        assertThat(unusable.at("/data/reason").asText()).isEqualTo("insufficient_quota (HTTP 429)");
        assertThat(unusable.at("/data/until").asText()).isNotBlank();
        assertThat(nodeA.send("DELETE", "/v1/webhooks/" + subscription, ADMIN, null, Map.of())
                        .status())
                .isEqualTo(204);
    }

    @Test
    void aReceiverThatFailsSeesTheRetriesWithOneIdAndTheLogCountsThem() {
        String subscription = subscribed(nodeA, ADMIN, receiver, "/failing", "job.succeeded");
        receiver.failNext("/failing", 3, "busy, try later");
        String id = job(nodeB, ADMIN, "{\"prompt\": \"retried\"}");
        await().atMost(WITHIN).untilAsserted(() -> {
            List<JsonNode> log = deliveries(nodeA, ADMIN, subscription);
            assertThat(log).hasSize(1);
            JsonNode only = log.getFirst();
            assertThat(only.get("status").asText()).isEqualTo("pending");
            assertThat(only.get("last_status").asInt()).isEqualTo(500);
            assertThat(only.get("last_error").asText()).isEqualTo("HTTP 500: busy, try later");
            assertThat(only.get("next_attempt_at").isTextual()).isTrue();
        });
        await().atMost(WITHIN)
                .untilAsserted(() -> assertThat(deliveries(nodeB, ADMIN, subscription))
                        .singleElement()
                        .satisfies(d -> assertThat(d.get("status").asText()).isEqualTo("delivered")));
        JsonNode log = deliveries(nodeB, ADMIN, subscription).getFirst();
        assertThat(log.get("attempts").asInt()).isEqualTo(4);
        assertThat(log.get("last_status").asInt()).isEqualTo(200);
        assertThat(log.get("last_error").isNull()).isTrue();
        assertThat(log.get("event_type").asText()).isEqualTo("job.succeeded");
        List<WebhookReceiver.Received> seen = receiver.at("/failing");
        assertThat(seen).hasSize(4).allSatisfy(r -> {
            assertThat(r.id()).isEqualTo(log.get("id").asText());
            assertThat(r.signedRight()).isTrue();
            assertThat(r.json().at("/data/job_id").asText()).isEqualTo(id);
        });
        assertThat(seen.stream().map(WebhookReceiver.Received::status)).containsExactly(500, 500, 500, 200);
        assertThat(seen.stream().map(WebhookReceiver.Received::body).distinct()).hasSize(1);
    }

    @Test
    void whileBothNodesStayUpEachDeliveryArrivesExactlyOnce() {
        String subscription = subscribed(nodeB, ADMIN, receiver, "/once", "job.succeeded", "job.failed");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            ids.add(job(i % 2 == 0 ? nodeA : nodeB, ADMIN, "{\"prompt\": \"once " + i + "\"}"));
        }
        await().atMost(WITHIN)
                .untilAsserted(() -> assertThat(deliveries(nodeA, ADMIN, subscription))
                        .hasSize(ids.size())
                        .allSatisfy(d -> assertThat(d.get("status").asText()).isEqualTo("delivered")));
        List<WebhookReceiver.Received> seen = receiver.at("/once");
        assertThat(seen)
                .hasSize(ids.size())
                .allSatisfy(r -> assertThat(r.signedRight()).isTrue());
        assertThat(seen.stream().map(WebhookReceiver.Received::id).distinct()).hasSize(ids.size());
        assertThat(seen.stream().map(r -> r.json().at("/data/job_id").asText()))
                .containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void aClientKeyHearsOnlyOfItsOwnJobsAndSeesOnlyItsOwnSubscriptions() {
        String alice = nodeA.newKey("alice", "client");
        String bob = nodeA.newKey("bob", "client");
        String admins = subscribed(nodeA, ADMIN, receiver, "/admins", "breaker.opened", "job.succeeded");
        String alices = subscribed(nodeA, alice, receiver, "/alice", "*");
        String bobs = subscribed(nodeB, bob, receiver, "/bob", "job.succeeded");
        var refused = WebhookNodes.subscribe(nodeA, alice, receiver.url("/alice"), "breaker.opened");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.body().at("/error/code").asText()).isEqualTo("event_type_not_allowed");

        String hers = job(nodeA, alice, "{\"prompt\": \"alice's\"}");
        String his = job(nodeB, bob, "{\"prompt\": \"bob's\"}");
        moveABreaker("somewhere");
        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(jobIds("/bob")).containsExactly(his);
            assertThat(jobIds("/alice")).containsExactly(hers);
            assertThat(types("/admins")).contains("breaker.opened");
            assertThat(jobIds("/admins")).contains(hers, his);
        });
        assertThat(types("/alice")).containsOnly("job.succeeded");
        assertThat(deliveries(nodeA, alice, alices)).hasSize(1);

        assertThat(ids(nodeA.get("/v1/webhooks", alice))).containsExactly(alices);
        assertThat(ids(nodeA.get("/v1/webhooks", ADMIN))).contains(admins, alices, bobs);
        for (String path : List.of("/v1/webhooks/" + admins, "/v1/webhooks/" + bobs + "/deliveries")) {
            var hidden = nodeA.get(path, alice);
            assertThat(hidden.status()).as(path).isEqualTo(404);
            assertThat(hidden.body().at("/error/code").asText()).isEqualTo("webhook_not_found");
        }
        assertThat(nodeA.send("DELETE", "/v1/webhooks/" + bobs, alice, null, Map.of())
                        .status())
                .isEqualTo(404);
        assertThat(nodeA.get("/v1/webhooks/" + bobs, bob).status()).isEqualTo(200);
    }

    @Test
    void aJobsCallbackUrlHearsOfItsEndSignedWithItsKeysCallbackSecret() {
        String carol = nodeA.newKey("carol", "client");
        var secret = nodeB.get("/v1/webhooks/callback-secret", carol);
        assertThat(secret.status()).isEqualTo(200);
        assertThat(secret.body().get("secret").asText()).startsWith("whsec_");
        assertThat(nodeA.get("/v1/webhooks/callback-secret", carol).body()).isEqualTo(secret.body());
        receiver.expect("/carol", secret.body().get("secret").asText());

        String url = receiver.url("/carol");
        String id = job(nodeA, carol, "{\"prompt\": \"called back\", \"callback_url\": \"" + url + "\"}");
        assertThat(nodeB.get("/v1/jobs/" + id, carol).body().get("callback_url").asText())
                .isEqualTo(url);
        await().atMost(WITHIN)
                .untilAsserted(() -> assertThat(receiver.at("/carol")).hasSize(1));
        WebhookReceiver.Received called = receiver.at("/carol").getFirst();
        assertThat(called.signedRight()).isTrue();
        assertThat(called.type()).isEqualTo("job.succeeded");
        assertThat(called.json().at("/data/job_id").asText()).isEqualTo(id);
        assertThat(state(nodeA, id)).isEqualTo("succeeded");
    }

    @Test
    void aDeletedSubscriptionHearsNothingMoreAndItsLogIsGone() {
        String subscription = subscribed(nodeA, ADMIN, receiver, "/deleted", "job.succeeded");
        job(nodeA, ADMIN, "{\"prompt\": \"before\"}");
        await().atMost(WITHIN)
                .untilAsserted(() -> assertThat(receiver.at("/deleted")).hasSize(1));
        assertThat(nodeB.send("DELETE", "/v1/webhooks/" + subscription, ADMIN, null, Map.of())
                        .status())
                .isEqualTo(204);
        assertThat(nodeB.send("DELETE", "/v1/webhooks/" + subscription, ADMIN, null, Map.of())
                        .status())
                .isEqualTo(404);
        assertThat(nodeA.get("/v1/webhooks/" + subscription + "/deliveries", ADMIN)
                        .status())
                .isEqualTo(404);
        String later = subscribed(nodeA, ADMIN, receiver, "/after", "job.succeeded");
        String after = job(nodeA, ADMIN, "{\"prompt\": \"after\"}");
        await().atMost(WITHIN).untilAsserted(() -> assertThat(jobIds("/after")).contains(after));
        assertThat(receiver.at("/deleted")).hasSize(1);
        nodeA.send("DELETE", "/v1/webhooks/" + later, ADMIN, null, Map.of());
    }

    private static String canceledJob() {
        String id = job(
                nodeA,
                ADMIN,
                "{\"prompt\": \"x\", \"timeout\": 30, \"simulate\": {\"primary\": \"slow:8000\", \"backup\": \"slow:8000\"}}");
        // either node's worker may run it, each against its own in-process vendors: the cancel goes
        // through the node whose vendor holds the call (the other node's vendor never heard of it,
        // so a cancel there could only park the job)
        await().atMost(WITHIN).until(() -> nodeA.runningAtVendors() + nodeB.runningAtVendors() > 0);
        TestServer holder = nodeA.runningAtVendors() > 0 ? nodeA : nodeB;
        await().atMost(WITHIN)
                .until(() ->
                        holder.post("/v1/jobs/" + id + "/cancel", ADMIN, null).status() == 200);
        return id;
    }

    private static void chat(TestServer node, String fields) {
        var reply = node.post(
                "/v1/chat/completions",
                ADMIN,
                "{" + fields + ", \"messages\": [{\"role\": \"user\", \"content\": \"hello\"}]}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
    }

    /** A key with a daily budget of two jobs spends it: 50 % after the first, 100 % after the second. */
    private static void spendAKeysBudget() {
        var created = nodeA.post("/v1/admin/keys", ADMIN, "{\"owner\": \"spender\", \"role\": \"client\"}");
        String key = created.body().get("key").asText();
        String keyId = created.body().get("id").asText();
        var budget =
                nodeA.send("PATCH", "/v1/admin/keys/" + keyId, ADMIN, "{\"daily_budget_usd\": \"0.08\"}", Map.of());
        assertThat(budget.status()).as(budget.raw()).isEqualTo(200);
        for (int i = 0; i < 2; i++) {
            String id = job(nodeB, key, "{\"prompt\": \"spend " + i + "\", \"lane\": \"standard\"}");
            await().atMost(WITHIN).until(() -> state(nodeB, id).equals("succeeded"));
        }
    }

    /** A breaker opens, takes its probe after the cooldown, and closes: the store's own moves. */
    private static void moveABreaker(String provider) {
        var breakers = new PgBreakerStore(nodeA.node().database());
        Instant now = Instant.now();
        assertThat(breakers.open(provider, now.plusMillis(10), "http_503", "test", now))
                .isPresent();
        assertThat(breakers.takeProbe(provider, now.plusSeconds(30), "test", now.plusSeconds(1)))
                .isPresent();
        assertThat(breakers.close(provider, "test", now.plusSeconds(1))).isPresent();
    }

    private static List<String> types(String path) {
        return receiver.at(path).stream().map(WebhookReceiver.Received::type).toList();
    }

    private static List<String> jobIds(String path) {
        return receiver.at(path).stream()
                .filter(r -> r.type().startsWith("job."))
                .map(r -> r.json().at("/data/job_id").asText())
                .toList();
    }

    private static JsonNode first(String path, String type) {
        return receiver.at(path).stream()
                .filter(r -> r.type().equals(type))
                .findFirst()
                .orElseThrow()
                .json();
    }

    /** Job events by "job id/type". */
    private static Map<String, JsonNode> byJob(List<WebhookReceiver.Received> seen) {
        return seen.stream()
                .filter(r -> r.type().startsWith("job."))
                .map(WebhookReceiver.Received::json)
                .collect(Collectors.toMap(
                        j -> j.at("/data/job_id").asText() + "/" + j.get("type").asText(),
                        Function.identity(),
                        (a, b) -> a));
    }

    private static List<String> ids(TestServer.Reply list) {
        List<String> ids = new ArrayList<>();
        list.body().get("data").forEach(s -> ids.add(s.get("id").asText()));
        return ids;
    }
}
