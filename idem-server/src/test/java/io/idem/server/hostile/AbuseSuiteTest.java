package io.idem.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Generated hostile requests for every route that takes input. Each one is made invalid on
 * purpose (one "poison" applied to an otherwise valid body, or a hostile id, cursor or header), and
 * for each: the status is 4xx, never 5xx; a JSON route answers in the error shape; and no row of
 * any table changed.
 */
class AbuseSuiteTest {
    private static TestServer server;
    private static String jobId;
    private static String keyId;
    private static String webhookId;

    /** A JSON route and a valid body for it; the poison makes it invalid. */
    record Route(String method, String path, String validBody, boolean takesIdempotencyKey) {
        Route(String method, String path, String validBody) {
            this(method, path, validBody, false);
        }
    }

    /** One way to make a valid JSON body invalid. */
    enum Poison {
        TRAILING_TOKEN,
        DUPLICATE_KEY,
        TOO_DEEP,
        NUL_ESCAPE,
        LONE_SURROGATE,
        BAD_UTF8,
        TRUNCATED,
        NOT_AN_OBJECT,
        HUGE_NUMBER,
        OVERSIZED,
        REPEATED_IDEMPOTENCY_KEY,
        REPEATED_AUTHORIZATION,
        BAD_IDEMPOTENCY_KEY,
        BROKEN_CHUNKS
    }

    /** A request, as bytes of head lines and body. */
    record Hostile(String method, String path, String headers, byte[] body, boolean json) {
        @Override
        public String toString() {
            String shown = new String(body, StandardCharsets.ISO_8859_1);
            return method + " " + path + "\n" + headers + "\n"
                    + (shown.length() > 300 ? shown.substring(0, 300) + "…(" + body.length + " bytes)" : shown);
        }
    }

    @BeforeContainer
    static void start() {
        // No worker: nothing changes a table in the background while a try compares them.
        server = TestServer.start(Map.of("IDEM_ROLE", "api"));
        jobId = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"x\"}")
                .body()
                .get("id")
                .asText();
        keyId = server.post("/v1/admin/keys", TestServer.ADMIN_KEY, "{\"owner\":\"abuse\"}")
                .body()
                .get("id")
                .asText();
        webhookId = server.post(
                        "/v1/webhooks",
                        TestServer.ADMIN_KEY,
                        "{\"url\": \"https://example.com/abuse\", \"event_types\": [\"breaker.opened\"]}")
                .body()
                .get("id")
                .asText();
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    private static List<Route> routes() {
        return List.of(
                new Route(
                        "POST", "/v1/jobs", "{\"prompt\": \"p\", \"timeout\": 3, \"metadata\": {\"a\": \"b\"}}", true),
                new Route(
                        "POST",
                        "/v1/images/generations",
                        "{\"prompt\": \"p\", \"n\": 1, \"size\": \"1024x1024\"}",
                        true),
                new Route(
                        "POST",
                        "/v1/chat/completions",
                        "{\"model\": \"fake-chat-a\", \"max_tokens\": 5, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}",
                        true),
                new Route("POST", "/v1/route/check", "{\"prompt\": \"p\", \"n\": 1}"),
                new Route("POST", "/v1/admin/keys", "{\"owner\": \"o\", \"role\": \"client\"}"),
                new Route("PATCH", "/v1/admin/keys/" + keyId, "{\"daily_budget_usd\": 2, \"jurisdiction\": \"eu\"}"),
                new Route("POST", "/v1/jobs/" + jobId + "/resolve", "{\"action\": \"fail\", \"note\": \"n\"}"),
                new Route(
                        "POST",
                        "/v1/webhooks",
                        "{\"url\": \"https://example.com/hook\", \"event_types\": [\"job.failed\"], \"description\": \"d\"}"));
    }

    @Provide
    Arbitrary<Hostile> poisonedBodies() {
        return Combinators.combine(
                        Arbitraries.of(routes()),
                        Arbitraries.of(Poison.values()),
                        Arbitraries.integers().between(0, 1_000_000),
                        Arbitraries.strings().ofMinLength(1).ofMaxLength(12))
                .as(AbuseSuiteTest::poison);
    }

    private static Hostile poison(Route route, Poison chosen, int seed, String noise) {
        // Only routes that honour an Idempotency-Key refuse a malformed one; elsewhere it is ignored.
        Poison poison =
                chosen == Poison.BAD_IDEMPOTENCY_KEY && !route.takesIdempotencyKey() ? Poison.TRUNCATED : chosen;
        String body = route.validBody();
        String auth = "Authorization: Bearer " + TestServer.ADMIN_KEY + "\r\n";
        String extra = "Content-Type: application/json\r\n";
        String firstField = body.substring(1, body.indexOf(':') + 1);
        byte[] bytes = switch (poison) {
            case TRAILING_TOKEN ->
                utf8(body + List.of(" x", "{}", "]", " 1", ",", " \"s\"").get(seed % 6));
            case DUPLICATE_KEY -> utf8("{" + firstField + " \"dup\", " + body.substring(1));
            case TOO_DEEP -> {
                int depth = 65 + seed % 2000;
                yield utf8("{\"deep\": " + "[".repeat(depth) + "]".repeat(depth) + ", " + body.substring(1));
            }
            case NUL_ESCAPE -> utf8(insertIntoFirstString(body, "\\u0000"));
            case LONE_SURROGATE ->
                utf8(insertIntoFirstString(
                        body, List.of("\\ud800", "\\udfff", "\\ud83d x").get(seed % 3)));
            case BAD_UTF8 -> badUtf8(body, seed);
            case TRUNCATED -> utf8(body.substring(0, 1 + seed % (body.length() - 1)));
            case NOT_AN_OBJECT ->
                utf8(List.of("[" + body + "]", "\"" + noise.replace("\"", "") + "\"", "null", "42", "")
                        .get(seed % 5));
            case HUGE_NUMBER ->
                utf8("{\"" + firstNumberField(route) + "\": "
                        + List.of("1e400", "-1e400", "18446744073709551617", "1" + "0".repeat(70), "-0.0000000000001")
                                .get(seed % 5)
                        + ", " + body.substring(1).replaceFirst("\"" + firstNumberField(route) + "\": [^,}]+,? ?", ""));
            case OVERSIZED -> {
                extra += "Content-Length: 999999999\r\n";
                yield utf8(body);
            }
            case REPEATED_IDEMPOTENCY_KEY -> {
                extra += "Idempotency-Key: k-" + seed + "\r\nIdempotency-Key: k-" + (seed + 1) + "\r\n";
                yield utf8(body);
            }
            case REPEATED_AUTHORIZATION -> {
                auth += auth;
                yield utf8(body);
            }
            case BAD_IDEMPOTENCY_KEY -> {
                extra += "Idempotency-Key: "
                        + List.of("", "a\tb", "k".repeat(256), "caf\u00e9").get(seed % 4) + "\r\n";
                yield utf8(body);
            }
            case BROKEN_CHUNKS -> {
                extra += "Transfer-Encoding: chunked\r\n";
                yield utf8(List.of(
                                "zz\r\n" + body + "\r\n0\r\n\r\n",
                                "ffffffffffffffffff\r\n" + body,
                                "3\r\n" + body + "\r\n0\r\n\r\n")
                        .get(seed % 3));
            }
        };
        boolean framed = poison == Poison.OVERSIZED || poison == Poison.BROKEN_CHUNKS;
        String length = framed ? "" : "Content-Length: " + bytes.length + "\r\n";
        return new Hostile(route.method(), route.path(), auth + extra + length, bytes, true);
    }

    private static String firstNumberField(Route route) {
        if (route.path().startsWith("/v1/admin/keys/")) {
            return "daily_budget_usd";
        }
        if (route.path().equals("/v1/webhooks")) {
            return "description";
        }
        if (route.path().endsWith("/resolve") || route.path().equals("/v1/admin/keys")) {
            return "note";
        }
        return route.path().equals("/v1/chat/completions") ? "max_tokens" : "n";
    }

    private static String insertIntoFirstString(String body, String escape) {
        int quote = body.indexOf("\": \"") + 4;
        return body.substring(0, quote) + escape + body.substring(quote);
    }

    private static byte[] badUtf8(String body, int seed) {
        List<byte[]> bad = List.of(
                new byte[] {(byte) 0xC0, (byte) 0xAF},
                new byte[] {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
                new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                new byte[] {(byte) 0xFF},
                new byte[] {(byte) 0x80},
                new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80});
        String head = body.substring(0, body.indexOf("\": \"") + 4);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8(head));
        out.writeBytes(bad.get(seed % bad.size()));
        out.writeBytes(utf8(body.substring(head.length())));
        return out.toByteArray();
    }

    @Provide
    Arbitrary<Hostile> hostileReads() {
        Arbitrary<String> junk = Arbitraries.strings()
                .withCharRange((char) 0x21, (char) 0x7e)
                .withChars('\u00e9', '\u2603', '\u0000', '\ud800')
                .ofMinLength(1)
                .ofMaxLength(80);
        Arbitrary<String> cursorText = Arbitraries.oneOf(
                junk,
                Arbitraries.of(
                        "+100000-01-01T00:00:00Z|" + UUID.randomUUID(),
                        "-999999999-01-01T00:00:00Z|" + UUID.randomUUID(),
                        "2026-01-01T00:00:00Z|1-1-1-1-1",
                        "2026-01-01T00:00:00Z",
                        "|"));
        return Arbitraries.oneOf(
                junk.map(id -> read("/v1/jobs/" + encode(id))),
                junk.map(id -> read("/v1/jobs/" + encode(id) + "/events")),
                junk.map(id -> read("/v1/assets/" + encode(id) + "?sig=" + encode(id))),
                // junk can spell a valid page size ("3"): those are not hostile
                junk.filter(value -> !value.matches("0*([1-9][0-9]?|1[0-9][0-9]|200)"))
                        .map(value -> read("/v1/jobs?limit=" + encode(value))),
                junk.map(value -> read("/v1/jobs?state=" + encode(value))),
                cursorText.map(text -> read("/v1/jobs?cursor="
                        + java.util.Base64.getUrlEncoder()
                                .withoutPadding()
                                .encodeToString(text.getBytes(StandardCharsets.UTF_8)))),
                junk.map(value -> read("/v1/jobs?cursor=" + encode(value))),
                cursorText.map(text -> read("/v1/events?cursor="
                        + java.util.Base64.getUrlEncoder()
                                .withoutPadding()
                                .encodeToString(text.getBytes(StandardCharsets.UTF_8)))),
                junk.map(value -> read("/v1/events?cursor=" + encode(value))),
                junk.map(value -> read("/v1/events?type=" + encode(value))),
                junk.map(value -> read("/v1/events?since=" + encode(value))),
                junk.map(value -> read("/v1/chat/attempts?cursor=" + encode(value))),
                junk.map(id -> read("/v1/webhooks/" + encode(id))),
                junk.map(id -> read("/v1/webhooks/" + encode(id) + "/deliveries")),
                cursorText.map(text -> read("/v1/webhooks/" + webhookId + "/deliveries?cursor="
                        + java.util.Base64.getUrlEncoder()
                                .withoutPadding()
                                .encodeToString(text.getBytes(StandardCharsets.UTF_8)))),
                junk.map(id -> new Hostile(
                        "DELETE",
                        "/v1/webhooks/" + encode(id),
                        "Authorization: Bearer " + TestServer.ADMIN_KEY + "\r\n",
                        new byte[0],
                        true)),
                junk.map(id -> new Hostile(
                        "POST",
                        "/v1/jobs/" + encode(id) + "/cancel",
                        "Authorization: Bearer " + TestServer.ADMIN_KEY + "\r\nContent-Length: 0\r\n",
                        new byte[0],
                        true)),
                junk.map(ref -> new Hostile(
                        "POST",
                        "/v1/hooks/primary?ref=" + encode(ref) + "&sig=" + encode(ref),
                        "Content-Type: application/json\r\nContent-Length: 2\r\n",
                        utf8("{}"),
                        true)),
                junk.map(key -> new Hostile(
                        "GET",
                        "/v1/providers",
                        "Authorization: Bearer " + key.replace("\u0000", "") + "\r\n",
                        new byte[0],
                        true)),
                junk.map(form -> new Hostile(
                        "POST",
                        "/console/login",
                        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                                + utf8("api_key=%" + form).length + "\r\n",
                        utf8("api_key=%" + form),
                        false)));
    }

    private static Hostile read(String path) {
        return new Hostile("GET", path, "Authorization: Bearer " + TestServer.ADMIN_KEY + "\r\n", new byte[0], true);
    }

    @Property(tries = 250)
    void aPoisonedBodyIsA4xxInTheErrorShapeAndChangesNothing(@ForAll("poisonedBodies") Hostile request) {
        assertRefusedAndNothingChanged(request);
    }

    @Property(tries = 250)
    void aHostileIdCursorOrHeaderIsA4xxAndChangesNothing(@ForAll("hostileReads") Hostile request) {
        assertRefusedAndNothingChanged(request);
    }

    private static void assertRefusedAndNothingChanged(Hostile request) {
        TableSnapshot before = TableSnapshot.of(server.node().database());
        RawHttp.Answer answer = RawHttp.send(
                server.node().baseUrl(), request.method(), request.path(), request.headers(), request.body());
        assertThat(answer.status()).as(answer.body()).isBetween(400, 499);
        if (request.json()) {
            JsonNode error = answer.json().path("error");
            assertThat(error.path("code").asText()).as(answer.body()).isNotBlank();
            assertThat(error.path("message").asText()).as(answer.body()).isNotBlank();
            assertThat(error.path("request_id").asText()).as(answer.body()).isNotBlank();
        }
        assertThat(TableSnapshot.of(server.node().database())).isEqualTo(before);
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
