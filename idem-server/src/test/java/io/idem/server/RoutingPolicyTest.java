package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.fake.FakeVendorServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Lanes, capabilities, key attributes and budgets, and route/check, on one real node. */
class RoutingPolicyTest {
    private static FakeVendorServer us;
    private static FakeVendorServer eu;
    private static FakeVendorServer other;
    private static TestServer server;

    @BeforeAll
    static void start() {
        us = FakeVendorServer.start(0);
        eu = FakeVendorServer.start(0);
        other = FakeVendorServer.start(0);
        server = TestServer.start(
                Map.of("PROVIDERS_JSON", """
                {"providers": {
                   "us": {"adapter": "fake", "base_url": "%s", "cost_per_image_usd": "0.04",
                          "capabilities": {"jurisdictions": ["us"], "max_n": 1}},
                   "eu": {"adapter": "fake", "base_url": "%s", "cost_per_image_usd": "0.04",
                          "capabilities": {"jurisdictions": ["eu"], "max_n": 4}},
                   "keyed": {"adapter": "fake", "base_url": "%s", "api_key_env": "IDEM_TEST_MISSING_KEY"},
                   "fastone": {"adapter": "fake", "base_url": "%s"}},
                 "lanes": {"standard": ["us", "eu", "keyed"], "fast": ["fastone"],
                           "adult": {"providers": ["eu"], "adult": true}}}
                """.formatted(us.baseUrl(), eu.baseUrl(), other.baseUrl(), other.baseUrl())));
    }

    @AfterAll
    static void stop() {
        server.close();
        us.close();
        eu.close();
        other.close();
    }

    private static String key(String owner, String attributes) {
        String secret = server.newKey(owner, "client");
        String id = server.get("/v1/admin/keys", TestServer.ADMIN_KEY).body().get("data").findValues("id").stream()
                .map(JsonNode::asText)
                .reduce((a, b) -> b)
                .orElseThrow();
        var patched = server.send("PATCH", "/v1/admin/keys/" + id, TestServer.ADMIN_KEY, attributes, Map.of());
        assertThat(patched.status()).as(patched.raw()).isEqualTo(200);
        return secret;
    }

    private static JsonNode created(String key, String body) {
        var reply = server.post("/v1/jobs", key, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
        return reply.body();
    }

    @Test
    void keyAttributesAreSetByPatchAndShownByTheList() {
        String secret =
                key("attrs", "{\"jurisdiction\": \"eu\", \"daily_budget_usd\": 12.5, \"adult_approved\": true}");
        var keys = server.get("/v1/admin/keys", TestServer.ADMIN_KEY).body().get("data");
        JsonNode mine = keys.get(keys.size() - 1);
        assertThat(mine.get("jurisdiction").asText()).isEqualTo("eu");
        assertThat(mine.get("daily_budget_usd").asText()).isEqualTo("12.5");
        assertThat(mine.get("adult_approved").asBoolean()).isTrue();
        assertThat(server.get("/v1/admin/keys", TestServer.ADMIN_KEY).raw()).doesNotContain(secret);
        String id = mine.get("id").asText();
        assertThat(server.send("PATCH", "/v1/admin/keys/" + id, TestServer.ADMIN_KEY, "{\"colour\": 1}", Map.of())
                        .status())
                .isEqualTo(400);
        assertThat(server.send(
                                "PATCH",
                                "/v1/admin/keys/" + id,
                                TestServer.ADMIN_KEY,
                                "{\"daily_budget_usd\": -1}",
                                Map.of())
                        .status())
                .isEqualTo(400);
        assertThat(server.send(
                                "PATCH",
                                "/v1/admin/keys/00000000-0000-0000-0000-000000000000",
                                TestServer.ADMIN_KEY,
                                "{\"jurisdiction\": null}",
                                Map.of())
                        .status())
                .isEqualTo(404);
    }

    @Test
    void aKeysJurisdictionSkipsProvidersElsewhereAndTheJobRecordsWhy() {
        String euKey = key("eu-client", "{\"jurisdiction\": \"eu\"}");
        JsonNode job = created(euKey, "{\"prompt\": \"x\"}");
        assertThat(job.get("candidates")).extracting(JsonNode::asText).containsExactly("eu");
        var events = server.get("/v1/jobs/" + job.get("id").asText() + "/events", euKey)
                .body()
                .get("data");
        JsonNode skipped = events.get(0).get("detail").get("skipped");
        assertThat(skipped.get("us").asText()).isEqualTo("jurisdiction_mismatch");
        assertThat(skipped.get("keyed").asText()).contains("missing_credential");
    }

    @Test
    void capabilitiesDropCandidatesAndNoneLeftIsA400NamingEachAndWhy() {
        JsonNode job = created(TestServer.ADMIN_KEY, "{\"prompt\": \"x\", \"n\": 2}");
        assertThat(job.get("candidates")).extracting(JsonNode::asText).containsExactly("eu");
        var none = server.post(
                "/v1/jobs",
                TestServer.ADMIN_KEY,
                "{\"prompt\": \"x\", \"n\": 2, \"kind\": \"image\", "
                        + "\"provider_policy\": {\"primary\": \"us\", \"backup\": \"keyed\"}}");
        assertThat(none.status()).isEqualTo(400);
        assertThat(none.body().get("error").get("code").asText()).isEqualTo("no_eligible_provider");
        assertThat(none.body().get("error").get("skipped").get("us").asText()).isEqualTo("n_too_large");
    }

    @Test
    void aMissingCredentialIsSkippedInAutoModeAndAnErrorWhenPinned() {
        JsonNode auto = created(TestServer.ADMIN_KEY, "{\"prompt\": \"x\"}");
        assertThat(auto.get("candidates")).extracting(JsonNode::asText).containsExactly("us", "eu");
        var pinned = server.post(
                "/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"x\", \"provider_policy\": {\"primary\": \"keyed\"}}");
        assertThat(pinned.status()).isEqualTo(400);
        assertThat(pinned.body().get("error").get("code").asText()).isEqualTo("provider_unavailable");
        assertThat(pinned.raw()).doesNotContain("IDEM_TEST_MISSING_KEY=");
    }

    @Test
    void theAdultLaneIsClosedWithoutApprovalAndWithoutModeration() {
        var refused = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"x\", \"lane\": \"adult\"}");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.body().get("error").get("code").asText()).isEqualTo("adult_lane_not_approved");
        String approved = key("adult-ok", "{\"adult_approved\": true}");
        var unmoderated = server.post("/v1/jobs", approved, "{\"prompt\": \"x\", \"lane\": \"adult\"}");
        assertThat(unmoderated.status()).isEqualTo(403);
        assertThat(unmoderated.body().get("error").get("code").asText()).isEqualTo("adult_lane_unmoderated");
    }

    @Test
    void aKeyPastItsDailyBudgetIsRefusedWith429BeforeAnyProviderIsCalled() {
        String budgeted = key("budgeted", "{\"daily_budget_usd\": 0.08}"); // two jobs at 0.04 spend it exactly
        for (int i = 0; i < 2; i++) {
            String id = created(budgeted, "{\"prompt\": \"x\"}").get("id").asText();
            org.awaitility.Awaitility.await()
                    .until(() -> server.get("/v1/jobs/" + id, budgeted)
                            .body()
                            .get("state")
                            .asText()
                            .equals("succeeded"));
        }
        awaitNoJobInFlight();
        int ledger = us.ledger().size() + eu.ledger().size();
        var refused = server.post("/v1/jobs", budgeted, "{\"prompt\": \"x\"}");
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.body().get("error").get("code").asText()).isEqualTo("budget_exceeded");
        assertThat(us.ledger().size() + eu.ledger().size()).isEqualTo(ledger);
    }

    @Test
    void aJobWhoseExpectedCostWouldPassTheKeysBudgetFailsWithoutCallingAnyProvider() {
        String budgeted = key("tight", "{\"daily_budget_usd\": 0.05}");
        String first = created(budgeted, "{\"prompt\": \"x\"}").get("id").asText();
        org.awaitility.Awaitility.await()
                .until(() -> server.get("/v1/jobs/" + first, budgeted)
                        .body()
                        .get("state")
                        .asText()
                        .equals("succeeded"));
        awaitNoJobInFlight();
        int ledger = us.ledger().size() + eu.ledger().size();

        String second = created(budgeted, "{\"prompt\": \"x\"}").get("id").asText();
        org.awaitility.Awaitility.await()
                .until(() -> server.get("/v1/jobs/" + second, budgeted)
                        .body()
                        .get("state")
                        .asText()
                        .equals("failed"));

        JsonNode job = server.get("/v1/jobs/" + second, budgeted).body();
        assertThat(job.get("error").get("code").asText()).isEqualTo("budget_exceeded");
        assertThat(job.get("attempts")).isEmpty();
        assertThat(us.ledger().size() + eu.ledger().size()).isEqualTo(ledger);
    }

    /** Waits until no job of the earlier tests is queued or running, so none calls a vendor now. */
    private static void awaitNoJobInFlight() {
        org.awaitility.Awaitility.await()
                .until(
                        () -> server
                                .get("/v1/jobs?limit=200", TestServer.ADMIN_KEY)
                                .body()
                                .get("data")
                                .findValuesAsText("state")
                                .stream()
                                .noneMatch(state -> state.equals("queued") || state.equals("running")));
    }

    @Test
    void routeCheckExplainsEveryCandidateAndCallsNothing() {
        awaitNoJobInFlight(); // the ledger below must not move for an earlier test's job
        int ledger = us.ledger().size() + eu.ledger().size();
        int jobs = server.get("/v1/jobs?limit=200", TestServer.ADMIN_KEY)
                .body()
                .get("data")
                .size();
        var check = server.post("/v1/route/check", TestServer.ADMIN_KEY, "{\"prompt\": \"x\", \"n\": 2}");
        assertThat(check.status()).as(check.raw()).isEqualTo(200);
        List<String> lines = new ArrayList<>();
        check.body()
                .get("candidates")
                .forEach(c -> lines.add(
                        c.get("provider").asText() + ":" + c.get("eligible").asBoolean() + ":" + c.get("reasons")));
        assertThat(lines)
                .containsExactly("us:false:[\"n_too_large\"]", "eu:true:[]", "keyed:false:[\"missing_credential\"]");
        assertThat(check.body().get("lane").asText()).isEqualTo("standard");
        assertThat(us.ledger().size() + eu.ledger().size()).isEqualTo(ledger);
        assertThat(server.get("/v1/jobs?limit=200", TestServer.ADMIN_KEY)
                        .body()
                        .get("data")
                        .size())
                .isEqualTo(jobs);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http_503",
                "http_429",
                "refuse",
                "malformed",
                "user_error",
                "policy",
                "auth",
                "disconnect",
                "lost"
            })
    void noErrorClassEverLeavesTheLane(String mode) {
        JsonNode job = created(
                TestServer.ADMIN_KEY,
                "{\"prompt\": \"x\", \"lane\": \"fast\", \"timeout\": 1, \"simulate\": {\"fastone\": \"" + mode
                        + "\"}}");
        String id = job.get("id").asText();
        org.awaitility.Awaitility.await()
                .until(() -> !server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                        .body()
                        .get("state")
                        .asText()
                        .matches("queued|running"));
        var done = server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
        assertThat(done.get("attempts"))
                .allSatisfy(a -> assertThat(a.get("provider").asText()).isEqualTo("fastone"));
    }
}
