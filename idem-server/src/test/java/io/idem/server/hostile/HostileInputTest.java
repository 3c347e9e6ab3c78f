package io.idem.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import io.idem.server.auth.ServerSecret;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an attacker tried at the door, one behaviour per test: each is a clean 4xx in the API's
 * error shape, and the database is exactly as it was before.
 */
class HostileInputTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        // No worker: nothing changes a table in the background while a test compares them.
        server = TestServer.start(Map.of("IDEM_ROLE", "api"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static TableSnapshot snapshot() {
        return TableSnapshot.of(server.node().database());
    }

    private static void assertShape(String code, JsonNode body, String raw) {
        assertThat(body).as(raw).isNotNull();
        assertThat(body.path("error").path("code").asText()).as(raw).isEqualTo(code);
        assertThat(body.path("error").path("request_id").asText()).as(raw).isNotBlank();
        assertThat(body.path("error").path("message").asText()).as(raw).isNotBlank();
    }

    private static void assertRefused(TestServer.Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.raw()).isEqualTo(status);
        assertShape(code, reply.body(), reply.raw());
    }

    private static void assertRefused(RawHttp.Answer answer, int status, String code) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.headers().get("content-type")).as(answer.body()).contains("application/json");
        assertShape(code, answer.json(), answer.body());
    }

    /** A raw {@code POST /v1/jobs} as the admin, with extra head lines and an ASCII body. */
    private static RawHttp.Answer postJob(String headerLines, String body) {
        return RawHttp.send(
                server.node().baseUrl(),
                "POST",
                "/v1/jobs",
                "Authorization: Bearer " + TestServer.ADMIN_KEY + "\r\nContent-Type: application/json\r\n"
                        + headerLines,
                body.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void aDuplicateKeyCannotTurnAClientKeyIntoAnAdminKey() {
        TableSnapshot before = snapshot();
        var reply = server.post(
                "/v1/admin/keys", TestServer.ADMIN_KEY, "{\"owner\":\"x\",\"role\":\"client\",\"role\":\"admin\"}");
        assertRefused(reply, 400, "duplicate_key");
        assertThat(reply.body().path("error").path("message").asText()).contains("role");
        assertThat(snapshot()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"prompt\": \"x\"} garbage",
                "{\"prompt\": \"x\"}{}",
                "{\"prompt\": \"x\"}]",
                "{\"prompt\": \"x\"} 1"
            })
    void trailingTokensAfterTheObjectAreRefused(String body) {
        TableSnapshot before = snapshot();
        assertRefused(server.post("/v1/jobs", TestServer.ADMIN_KEY, body), 400, "invalid_json");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aResolveWithTrailingGarbageIsRefusedBeforeItDecidesAnything() {
        String id = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"x\"}")
                .body()
                .get("id")
                .asText();
        TableSnapshot before = snapshot();
        var reply = server.post(
                "/v1/jobs/" + id + "/resolve", TestServer.ADMIN_KEY, "{\"action\":\"fail\",\"note\":\"n\"} trailing");
        assertRefused(reply, 400, "invalid_json");
        assertThat(snapshot()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(ints = {65, 800, 990, 5000})
    void nestingDeeperThanTheLimitIsA400NotAStackOverflow(int depth) {
        TableSnapshot before = snapshot();
        String body = "{\"prompt\": \"x\", \"metadata\": " + "{\"a\":".repeat(depth - 1) + "1" + "}".repeat(depth);
        assertRefused(server.post("/v1/jobs", TestServer.ADMIN_KEY, body), 400, "nesting_too_deep");
        assertRefused(
                server.post(
                        "/v1/chat/completions",
                        TestServer.ADMIN_KEY,
                        "{\"messages\": " + "[".repeat(depth) + "]".repeat(depth) + "}"),
                400,
                "nesting_too_deep");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void nestingUpToTheLimitIsStillAccepted() {
        // the body is level 1, metadata level 2; 62 more levels reach exactly 64
        String body = "{\"prompt\": \"x\", \"metadata\": " + "{\"a\":".repeat(62) + "{}" + "}".repeat(62) + "}";
        assertThat(server.post("/v1/jobs", TestServer.ADMIN_KEY, body).status()).isEqualTo(202);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"prompt\": \"a\\u0000b\"}",
                "{\"prompt\": \"a\\ud800b\"}",
                "{\"prompt\": \"a\\udc00\"}",
                "{\"prompt\": \"x\", \"metadata\": {\"k\": \"\\u0000\"}}",
                "{\"prompt\": \"x\", \"metadata\": {\"k\\u0000\": 1}}",
                "{\"prompt\": \"x\", \"metadata\": {\"k\": [\"ok\", \"\\ud83d\"]}}",
            })
    void textPostgresCannotStoreIsRefusedAsInvalidText(String body) {
        TableSnapshot before = snapshot();
        assertRefused(server.post("/v1/jobs", TestServer.ADMIN_KEY, body), 400, "invalid_text");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aPairedSurrogateEscapeIsOrdinaryText() {
        var reply = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"lighthouse \\ud83c\\udf0a\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
        assertThat(reply.body().get("id").asText()).isNotBlank();
    }

    @Test
    void aNoteOrAFailoverDefaultWithU0000IsRefused() {
        String id = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"x\"}")
                .body()
                .get("id")
                .asText();
        String keyId = server.post("/v1/admin/keys", TestServer.ADMIN_KEY, "{\"owner\":\"nul\"}")
                .body()
                .get("id")
                .asText();
        TableSnapshot before = snapshot();
        assertRefused(
                server.post(
                        "/v1/jobs/" + id + "/resolve",
                        TestServer.ADMIN_KEY,
                        "{\"action\":\"fail\",\"note\":\"a\\u0000\"}"),
                400,
                "invalid_text");
        assertRefused(
                server.send(
                        "PATCH",
                        "/v1/admin/keys/" + keyId,
                        TestServer.ADMIN_KEY,
                        "{\"failover_defaults\": {\"models\": [\"fake-chat-a\\u0000\"]}}",
                        Map.of()),
                400,
                "invalid_text");
        assertThat(snapshot()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"C0AF", "E080AF", "F08080AF", "FF", "EDA080", "80", "C3"})
    void bytesThatAreNotUtf8AreRefused(String hex) {
        TableSnapshot before = snapshot();
        byte[] prefix = "{\"prompt\": \"a".getBytes(StandardCharsets.UTF_8);
        byte[] bad = java.util.HexFormat.of().parseHex(hex);
        byte[] suffix = "\"}".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[prefix.length + bad.length + suffix.length];
        System.arraycopy(prefix, 0, body, 0, prefix.length);
        System.arraycopy(bad, 0, body, prefix.length, bad.length);
        System.arraycopy(suffix, 0, body, prefix.length + bad.length, suffix.length);
        assertRefused(
                RawHttp.postBytes(server.node().baseUrl(), "/v1/jobs", TestServer.ADMIN_KEY, body),
                400,
                "invalid_text");
        assertThat(snapshot()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"+100000-01-01T00:00:00Z", "-5000-01-01T00:00:00Z", "1969-12-31T23:59:59Z"})
    void aCursorCarryingAnOutOfRangeTimeIsRefused(String time) {
        String cursor = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((time + "|" + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8));
        assertRefused(server.get("/v1/jobs?cursor=" + cursor, TestServer.ADMIN_KEY), 400, "invalid_cursor");
    }

    @Test
    void anInvalidChunkedBodyIsA400InTheErrorShape() {
        TableSnapshot before = snapshot();
        var answer = postJob("Transfer-Encoding: chunked\r\n", "zz\r\n{\"prompt\": \"x\"}\r\n0\r\n\r\n");
        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        assertThat(answer.json().path("error").path("code").asText()).isIn("invalid_body", "bad_request");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aBodyThatEndsBeforeItsDeclaredLengthIsA400AndChangesNothing() {
        TableSnapshot before = snapshot();
        var answer = RawHttp.sendAndStop(
                server.node().baseUrl(),
                "POST",
                "/v1/jobs",
                "Authorization: Bearer " + TestServer.ADMIN_KEY + "\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 100\r\n",
                "{\"prompt\": \"x\"}".getBytes(StandardCharsets.US_ASCII));
        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        assertThat(answer.json().path("error").path("code").asText()).isIn("invalid_body", "bad_request");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aValidlySignedCallbackWhoseReferenceIsNotAnAttemptIdIsA400() {
        String reference = "not-a-uuid";
        byte[] mac = ServerSecret.of("test-secret-0123456789abcdef").hmac("hook", "primary", reference);
        String sig = Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(mac, 18));
        var reply = server.post("/v1/hooks/primary?ref=" + reference + "&sig=" + sig, null, "{}");
        assertRefused(reply, 400, "invalid_reference");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"1e20", "\"1e999999999\"", "1e999", "\"1e-999999999\"", "2000000", "0.0000001", "-1", "\"12abc\""
            })
    void aBudgetOutsideItsDocumentedRangeIsRefusedNamingTheField(String value) {
        String keyId = server.post("/v1/admin/keys", TestServer.ADMIN_KEY, "{\"owner\":\"budget\"}")
                .body()
                .get("id")
                .asText();
        TableSnapshot before = snapshot();
        var reply = server.send(
                "PATCH",
                "/v1/admin/keys/" + keyId,
                TestServer.ADMIN_KEY,
                "{\"daily_budget_usd\": " + value + "}",
                Map.of());
        assertRefused(reply, 400, "invalid_daily_budget_usd");
        assertThat(reply.body().path("error").path("message").asText()).contains("daily_budget_usd");
        assertThat(snapshot()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.05", "\"0.05\"", "1000000", "12.5e0"})
    void aBudgetInsideTheRangeIsStillAccepted(String value) {
        String keyId = server.post("/v1/admin/keys", TestServer.ADMIN_KEY, "{\"owner\":\"budget\"}")
                .body()
                .get("id")
                .asText();
        var reply = server.send(
                "PATCH",
                "/v1/admin/keys/" + keyId,
                TestServer.ADMIN_KEY,
                "{\"daily_budget_usd\": " + value + "}",
                Map.of());
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
    }

    @Test
    void aWholeNumberBeyondLongIsRefusedNotWrapped() {
        TableSnapshot before = snapshot();
        assertRefused(
                server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"x\", \"n\": 18446744073709551617}"),
                400,
                "invalid_n");
        assertRefused(
                server.post(
                        "/v1/chat/completions",
                        TestServer.ADMIN_KEY,
                        "{\"model\": \"fake-chat-a\", \"n\": 4294967297, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"),
                400,
                "unsupported_n");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void twoIdempotencyKeyHeadersAreRefused() {
        TableSnapshot before = snapshot();
        var answer =
                postJob("Idempotency-Key: one\r\nIdempotency-Key: two\r\nContent-Length: 14\r\n", "{\"prompt\":\"x\"}");
        assertRefused(answer, 400, "repeated_header");
        assertThat(answer.json().path("error").path("message").asText()).contains("Idempotency-Key");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void twoAuthorizationHeadersAreRefused() {
        String client = server.newKey("two-auth", "client");
        var answer = RawHttp.send(
                server.node().baseUrl(),
                "GET",
                "/v1/admin/keys",
                "Authorization: Bearer " + client + "\r\nAuthorization: Bearer " + TestServer.ADMIN_KEY + "\r\n",
                new byte[0]);
        assertRefused(answer, 400, "repeated_header");
        assertThat(answer.body()).doesNotContain(client).doesNotContain(TestServer.ADMIN_KEY);
    }

    @Test
    void oversizedHeadersAndURIsAreAnsweredInTheErrorShape() {
        var headers = RawHttp.send(
                server.node().baseUrl(),
                "GET",
                "/v1/jobs",
                "X-Padding: " + "a".repeat(64 * 1024) + "\r\n",
                new byte[0]);
        assertRefused(headers, 431, "headers_too_large");
        var uri = RawHttp.send(server.node().baseUrl(), "GET", "/v1/jobs?x=" + "a".repeat(64 * 1024), "", new byte[0]);
        assertThat(uri.status()).isIn(414, 431);
        assertThat(uri.json().path("error").path("code").asText()).isIn("uri_too_long", "headers_too_large");
    }

    @Test
    void aHeadThatIsNotHttpIsA400InTheErrorShape() {
        var answer =
                RawHttp.send(server.node().baseUrl(), "GET", "/v1/jobs", "Bad Header Without Colon\r\n", new byte[0]);
        assertRefused(answer, 400, "bad_request");
    }

    @Test
    void anOversizedBodySentWholeStillGetsItsAnswerNotAReset() {
        byte[] body = ("{\"prompt\": \"" + "x".repeat(4_000_000) + "\"}").getBytes(StandardCharsets.US_ASCII);
        var before = snapshot();
        var answer = RawHttp.postBytes(server.node().baseUrl(), "/v1/jobs", TestServer.ADMIN_KEY, body);
        assertRefused(answer, 413, "payload_too_large");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aClientExpectingContinueIsRefusedBeforeItSendsTheBody() {
        var answer = postJob("Expect: 100-continue\r\nContent-Length: 50000000\r\n", "");
        assertRefused(answer, 413, "payload_too_large");
    }
}
