package io.idem.server.chat;

import static io.idem.server.chat.ChatCalls.call;
import static io.idem.server.chat.ChatCalls.keyWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Chains in all three forms, their validation, and the report, on a real demo node. */
class ChatChainsTest {
    private static TestServer server;
    private static final String ADMIN = TestServer.ADMIN_KEY;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aSingleModelCallAnswersInOpenAisShapeWithoutAFailoverReport() {
        var reply = call(server, ADMIN, "\"model\":\"fake-chat-a\",\"temperature\":0.2");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        JsonNode body = reply.body();
        assertThat(body.get("object").asText()).isEqualTo("chat.completion");
        assertThat(body.get("id").asText()).startsWith("chatcmpl-");
        assertThat(body.get("model").asText()).isEqualTo("fake-chat-a");
        assertThat(body.at("/choices/0/message/content").asText())
                .isEqualTo("Hello from fake-chat-a. You said: hi there");
        assertThat(body.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(body.at("/usage/total_tokens").asInt()).isEqualTo(9);
        assertThat(body.at("/idem/served_model").asText()).isEqualTo("fake-chat-a");
        assertThat(body.at("/idem/requested_model").asText()).isEqualTo("fake-chat-a");
        assertThat(body.at("/idem/failover").isMissingNode()).isTrue();
        assertThat(reply.header("Idem-Served-Model")).isEqualTo("fake-chat-a");
        assertThat(reply.header("Idem-Attempts")).isNull();
    }

    @Test
    void aChainFromModelsFailsOverAndReportsEveryAttempt() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"redundancy\":{\"retries\":0},\"simulate\":{\"fake-chat-a\":\"http_503\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().get("model").asText()).isEqualTo("fake-chat-b");
        assertThat(reply.body().at("/idem/served_model").asText()).isEqualTo("fake-chat-b");
        assertThat(reply.body().at("/idem/requested_model").asText()).isEqualTo("fake-chat-a");
        JsonNode attempts = reply.body().at("/idem/failover/attempts");
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).get("model").asText()).isEqualTo("fake-chat-a");
        assertThat(attempts.get(0).get("provider").asText()).isEqualTo("primary");
        assertThat(attempts.get(0).get("outcome").asText()).isEqualTo("unavailable");
        assertThat(attempts.get(0).get("status").asInt()).isEqualTo(503);
        assertThat(attempts.get(0).get("billable").asText()).isEqualTo("no");
        assertThat(attempts.get(0).has("latency_ms")).isTrue();
        assertThat(attempts.get(1).get("outcome").asText()).isEqualTo("served");
        assertThat(attempts.get(1).get("billable").asText()).isEqualTo("yes");
        assertThat(reply.header("Idem-Served-Model")).isEqualTo("fake-chat-b");
        assertThat(reply.header("Idem-Attempts"))
                .startsWith("\"fake-chat-a\";provider=\"primary\";outcome=unavailable;status=503;")
                .contains("\"fake-chat-b\";provider=\"backup\";outcome=served;status=200;");
    }

    @Test
    void aChainFromModelWithFallbackModelsStartsAtTheModel() {
        var reply = call(
                server,
                ADMIN,
                "\"model\":\"fake-chat-b\",\"fallback_models\":[\"fake-chat-a\"],"
                        + "\"simulate\":{\"fake-chat-b\":\"http_503\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().at("/idem/served_model").asText()).isEqualTo("fake-chat-a");
        assertThat(reply.body().at("/idem/requested_model").asText()).isEqualTo("fake-chat-b");
    }

    @Test
    void aChainFromTheKeysFailoverDefaultsStartsAtTheRequestedModel() {
        String key = keyWith(server, "defaults", """
                {"failover_defaults": {"models": ["fake-chat-a", "fake-chat-b", "static"], "on": ["server_error"], "retries": 0}}""");
        var fromDefaults = call(server, key, "\"model\":\"fake-chat-a\",\"simulate\":{\"fake-chat-a\":\"http_503\"}");
        assertThat(fromDefaults.status()).as(fromDefaults.raw()).isEqualTo(200);
        assertThat(fromDefaults.body().at("/idem/served_model").asText()).isEqualTo("fake-chat-b");
        assertThat(fromDefaults.body().at("/idem/failover/attempts")).hasSize(2);

        var fromPosition = call(server, key, "\"model\":\"fake-chat-b\",\"simulate\":{\"fake-chat-b\":\"http_503\"}");
        assertThat(fromPosition.body().at("/idem/served_model").asText()).isEqualTo("static");
        assertThat(fromPosition.body().at("/idem/failover/attempts"))
                .extracting(a -> a.get("model").asText())
                .containsExactly("fake-chat-b", "static");

        var requestWins = call(
                server,
                key,
                "\"model\":\"fake-chat-a\",\"fallback_models\":[]," + "\"simulate\":{\"fake-chat-a\":\"http_503\"}");
        assertThat(requestWins.status())
                .as("the request's own chain has no fallback")
                .isEqualTo(502);

        var keyOn = call(server, key, "\"model\":\"fake-chat-a\",\"simulate\":{\"fake-chat-a\":\"http_429\"}");
        assertThat(keyOn.status())
                .as("the key's on: [server_error] excludes a rate limit")
                .isEqualTo(429);
    }

    @Test
    void aModelOutsideTheKeysDefaultsReplacesTheFirstDefaultAndKeepsTheLastTier() {
        String key = keyWith(server, "outside", """
                {"failover_defaults": {"models": ["fake-chat-a", "static"], "retries": 0}}""");
        var reply = call(server, key, "\"model\":\"fake-chat-b\",\"simulate\":{\"fake-chat-b\":\"http_503\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().at("/idem/served_model").asText()).isEqualTo("static");
        assertThat(reply.body().at("/idem/failover/attempts"))
                .extracting(a -> a.get("model").asText())
                .containsExactly("fake-chat-b", "static");
    }

    @Test
    void failoverDefaultsAreValidatedWhenSetAndShownOnTheKey() {
        var created = server.post("/v1/admin/keys", ADMIN, "{\"owner\":\"fd\",\"role\":\"client\"}");
        String path = "/v1/admin/keys/" + created.body().get("id").asText();
        var tooMany = server.send(
                "PATCH", path, ADMIN, "{\"failover_defaults\":{\"models\":[\"a\",\"b\",\"c\",\"d\"]}}", Map.of());
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.body().at("/error/param").asText()).isEqualTo("failover_defaults.models");
        var badTimeout = server.send(
                "PATCH",
                path,
                ADMIN,
                "{\"failover_defaults\":{\"models\":[\"fake-chat-a\"],\"timeout_ms\":10}}",
                Map.of());
        assertThat(badTimeout.status()).isEqualTo(400);
        assertThat(badTimeout.body().at("/error/param").asText()).isEqualTo("failover_defaults.timeout_ms");
        var badOn = server.send(
                "PATCH",
                path,
                ADMIN,
                "{\"failover_defaults\":{\"models\":[\"fake-chat-a\"],\"on\":[\"always\"]}}",
                Map.of());
        assertThat(badOn.status()).isEqualTo(400);
        var good = server.send("PATCH", path, ADMIN, """
                {"failover_defaults":{"models":["fake-chat-a",{"model":"fake-chat-b","timeout_ms":5000}],
                 "first_token_timeout_ms":2000,"on":["timeout","rate_limit"]}}""", Map.of());
        assertThat(good.status()).as(good.raw()).isEqualTo(200);
        assertThat(good.body().at("/failover_defaults/models/1/timeout_ms").asInt())
                .isEqualTo(5000);
        var unknown = server.send(
                "PATCH", path, ADMIN, "{\"failover_defaults\":{\"models\":[\"fake-chat-a\",\"gpt-typo\"]}}", Map.of());
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.body().at("/error/code").asText()).isEqualTo("model_not_found");
        assertThat(unknown.body().at("/error/param").asText()).isEqualTo("failover_defaults.models[1]");
        assertThat(unknown.body().at("/error/message").asText()).contains("gpt-typo");
        assertThat(server.get("/v1/admin/keys", ADMIN).raw())
                .as("a refused PATCH changes nothing")
                .doesNotContain("gpt-typo");
        var cleared = server.send("PATCH", path, ADMIN, "{\"failover_defaults\":null}", Map.of());
        assertThat(cleared.body().get("failover_defaults").isNull()).isTrue();
    }

    @Test
    void duplicatesCollapseButMoreThanThreeDistinctModelsIsA400() {
        var collapsed = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-a\",\"fake-chat-b\",\"fake-chat-b\"],\"redundancy\":{\"retries\":0},"
                        + "\"simulate\":{\"fake-chat-a\":\"http_503\"}");
        assertThat(collapsed.status()).as(collapsed.raw()).isEqualTo(200);
        assertThat(collapsed.body().at("/idem/failover/attempts")).hasSize(2);

        var tooMany = call(server, ADMIN, "\"models\":[\"fake-chat-a\",\"fake-chat-b\",\"static\",\"x\"]");
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.body().at("/error/code").asText()).isEqualTo("too_many_models");
        assertThat(tooMany.body().at("/error/param").asText()).isEqualTo("models");
    }

    @Test
    void badChainsAreRefusedNamingTheField() {
        assertParam(
                call(server, ADMIN, "\"models\":[\"fake-chat-a\"],\"fallback_models\":[\"fake-chat-b\"]"),
                "fallback_models");
        assertParam(
                call(server, ADMIN, "\"model\":\"fake-chat-a\",\"redundancy\":{\"timeout_ms\":999}"),
                "redundancy.timeout_ms");
        assertParam(
                call(server, ADMIN, "\"model\":\"fake-chat-a\",\"redundancy\":{\"timeout_ms\":300001}"),
                "redundancy.timeout_ms");
        assertParam(
                call(server, ADMIN, "\"model\":\"fake-chat-a\",\"redundancy\":{\"first_token_timeout_ms\":499}"),
                "redundancy.first_token_timeout_ms");
        assertParam(
                call(server, ADMIN, "\"model\":\"fake-chat-a\",\"redundancy\":{\"first_token_timeout_ms\":60001}"),
                "redundancy.first_token_timeout_ms");
        assertParam(
                call(server, ADMIN, "\"models\":[{\"model\":\"fake-chat-a\",\"timeout_ms\":50}]"),
                "models[0].timeout_ms");
        assertParam(
                call(server, ADMIN, "\"model\":\"fake-chat-a\",\"redundancy\":{\"on\":[\"sometimes\"]}"),
                "redundancy.on");
        assertParam(call(server, ADMIN, "\"model\":\"nope\""), "model");
        assertParam(
                call(server, ADMIN, "\"model\":\"static\",\"simulate\":{\"static\":\"http_503\"}"), "simulate.static");
        assertParam(
                call(server, ADMIN, "\"model\":\"fake-chat-a\",\"simulate\":{\"fake-chat-a\":\"explode\"}"),
                "simulate.fake-chat-a");
        assertParam(call(server, ADMIN, "\"model\":\"fake-chat-a\",\"lane\":\"nowhere\""), "lane");
        assertThat(server.post(ChatCalls.PATH, ADMIN, "{\"model\":\"fake-chat-a\",\"messages\":[]}")
                        .body()
                        .at("/error/param")
                        .asText())
                .isEqualTo("messages");
        assertThat(server.post(ChatCalls.PATH, null, "{}").status()).isEqualTo(401);
    }

    private static void assertParam(TestServer.Reply reply, String param) {
        assertThat(reply.status()).as(reply.raw()).isEqualTo(400);
        assertThat(reply.body().at("/error/param").asText()).as(reply.raw()).isEqualTo(param);
        assertThat(reply.body().at("/error/type").asText()).isEqualTo("invalid_request_error");
    }

    @Test
    void theStaticTierClosesAChainAndMarksItsAnswerAsAFallback() {
        var reply = call(
                server, ADMIN, "\"models\":[\"fake-chat-a\",\"static\"],\"simulate\":{\"fake-chat-a\":\"http_503\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().at("/idem/served_model").asText()).isEqualTo("static");
        assertThat(reply.body().at("/idem/is_fallback").asBoolean()).isTrue();
        assertThat(reply.body().at("/idem/degradation_notice").asText()).contains("static fallback");
        assertThat(reply.body().at("/choices/0/message/content").asText())
                .as("'hi there' is not a known prompt: the notice itself")
                .isEqualTo(reply.body().at("/idem/degradation_notice").asText());

        var known = server.post(
                ChatCalls.PATH,
                ADMIN,
                "{\"model\":\"static\",\"messages\":[{\"role\":\"user\",\"content\":\"  What is IDEM?\"}]}");
        assertThat(known.body().at("/choices/0/message/content").asText()).contains("failover gateway");
        assertThat(known.body().at("/idem/is_fallback").asBoolean()).isTrue();
    }
}
