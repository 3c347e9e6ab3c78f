package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.server.TestServer;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The console's guards, over plain HTTP: sessions, roles, CSRF, and no secret on any page. */
class ConsoleSecurityTest {
    private static TestServer server;
    private static String base;
    private static String clientKey;
    private static String parked;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("RECONCILE_INTERVAL_SECONDS", "3600"));
        base = server.node().baseUrl();
        clientKey = server.newKey("alice", "client");
        parked = park(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A job whose primary accepted, billed and dropped the connection: parked in manual_review. */
    static String park(TestServer on) {
        String id =
                on.post("/v1/jobs", TestServer.ADMIN_KEY, """
                        {"prompt": "parked for the console", "timeout": 2, "simulate": {"primary": "disconnect"}}
                        """).body().get("id").asText();
        await().atMost(Duration.ofSeconds(20)).until(() -> state(on, id).equals("manual_review"));
        return id;
    }

    static String state(TestServer on, String id) {
        return on.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                .body()
                .get("state")
                .asText();
    }

    private static int jobCount() {
        return server.get("/v1/jobs?limit=200", TestServer.ADMIN_KEY)
                .body()
                .get("data")
                .size();
    }

    @Test
    void pagesNeedASignInAndSendTheVisitorToTheSignInForm() {
        HttpResponse<String> reply = new ConsoleClient(base).get("/console/review");
        assertThat(reply.uri().getPath()).isEqualTo("/console/login");
        assertThat(reply.body()).contains("<label for=\"api_key\">API key</label>");
    }

    @Test
    void signInKeepsTheKeyOnTheServerAndGivesTheBrowserAnOpaqueStrictHttpOnlyCookie() {
        ConsoleClient browser = new ConsoleClient(base);
        String csrf = browser.csrfOf(browser.get("/console/login").body());
        HttpResponse<String> reply =
                browser.post("/console/login", Map.of("_csrf", csrf, "api_key", TestServer.ADMIN_KEY));
        assertThat(reply.uri().getPath()).isEqualTo("/console/generate");
        String sessionId = browser.cookieValues().get(ConsoleSessions.COOKIE);
        assertThat(sessionId).isNotBlank().isNotEqualTo(TestServer.ADMIN_KEY).doesNotContain("idem_");
        List<String> setCookies =
                reply.previousResponse().orElseThrow().headers().allValues("Set-Cookie");
        assertThat(setCookies)
                .anySatisfy(c -> assertThat(c)
                        .startsWith(ConsoleSessions.COOKIE + "=" + sessionId)
                        .contains("HttpOnly", "SameSite=Strict", "Path=/console"));
    }

    @Test
    void aWrongKeyIsRefusedWithoutASession() {
        ConsoleClient browser = new ConsoleClient(base);
        String csrf = browser.csrfOf(browser.get("/console/login").body());
        HttpResponse<String> reply =
                browser.post("/console/login", Map.of("_csrf", csrf, "api_key", "idem_not_a_real_key_000000000"));
        assertThat(reply.statusCode()).isEqualTo(401);
        assertThat(reply.body()).contains("unknown or revoked").doesNotContain("idem_not_a_real_key");
        assertThat(browser.get("/console/generate").uri().getPath()).isEqualTo("/console/login");
    }

    @Test
    void aClientKeyCannotSeeOrActOnTheReviewQueue() {
        ConsoleClient alice = ConsoleClient.signedIn(base, clientKey);
        assertThat(alice.get("/console/generate").body()).doesNotContain("href=\"/console/review\"");

        HttpResponse<String> queue = alice.get("/console/review");
        assertThat(queue.statusCode()).isEqualTo(403);
        assertThat(queue.body()).contains("needs an operator or admin key").doesNotContain(parked);

        for (String action : List.of("reconcile", "retry", "fail", "confirm_result")) {
            HttpResponse<String> decided =
                    alice.postWithToken("/console/review/" + parked, Map.of("action", action, "note", "not mine"));
            assertThat(decided.statusCode()).as(action).isEqualTo(403);
        }
        assertThat(state(server, parked)).isEqualTo("manual_review");
        // nor does a client see another owner's job trace
        assertThat(alice.get("/console/jobs/" + parked).statusCode()).isEqualTo(404);
    }

    @Test
    void stateChangingPostsWithoutTheCsrfTokenAreRefused() {
        ConsoleClient admin = ConsoleClient.signedIn(base, TestServer.ADMIN_KEY);
        int before = jobCount();
        Map<String, String> job = Map.of(
                "prompt",
                "no token",
                "lane",
                "standard",
                "timeout",
                "3",
                "simulate_primary",
                "none",
                "intent",
                "generate");
        assertThat(admin.post("/console/generate", job).statusCode()).isEqualTo(403);
        Map<String, String> forged = new java.util.HashMap<>(job);
        forged.put("_csrf", "forged-token");
        assertThat(admin.post("/console/generate", forged).statusCode()).isEqualTo(403);
        assertThat(jobCount()).isEqualTo(before);

        assertThat(admin.post("/console/review/" + parked, Map.of("action", "fail", "note", "forged"))
                        .statusCode())
                .isEqualTo(403);
        assertThat(state(server, parked)).isEqualTo("manual_review");

        assertThat(admin.post("/console/logout", Map.of()).statusCode()).isEqualTo(403);
        assertThat(admin.get("/console/generate").uri().getPath()).isEqualTo("/console/generate");

        ConsoleClient stranger = new ConsoleClient(base);
        stranger.get("/console/login");
        assertThat(stranger.post("/console/login", Map.of("api_key", TestServer.ADMIN_KEY))
                        .statusCode())
                .isEqualTo(403);
    }

    @Test
    void aPostFromAnotherOriginIsRefusedEvenWithTheToken() throws Exception {
        ConsoleClient admin = ConsoleClient.signedIn(base, TestServer.ADMIN_KEY);
        String csrf = admin.csrfOf(admin.get("/console/generate").body());
        var http = java.net.http.HttpClient.newHttpClient();
        var reply = http.send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/console/generate"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .header("Origin", "http://evil.example")
                        .header(
                                "Cookie",
                                ConsoleSessions.COOKIE + "="
                                        + admin.cookieValues().get(ConsoleSessions.COOKIE))
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                "_csrf=" + csrf + "&prompt=x&lane=standard&timeout=3&intent=generate"))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(reply.statusCode()).isEqualTo(403);
    }

    @Test
    void noRenderedPageOrLiveFragmentCarriesTheApiKey() {
        ConsoleClient admin = ConsoleClient.signedIn(base, TestServer.ADMIN_KEY);
        HttpResponse<String> generated = admin.postWithToken(
                "/console/generate",
                Map.of(
                        "prompt",
                        "a secretless page",
                        "lane",
                        "standard",
                        "timeout",
                        "3",
                        "simulate_primary",
                        "http_503",
                        "intent",
                        "generate"));
        assertThat(generated.statusCode()).isEqualTo(200);
        HttpResponse<String> replayed = admin.postWithToken("/console/generate", Map.of("intent", "replay"));
        assertThat(replayed.body()).contains("data-replayed=\"true\"");
        List<String> pages = List.of(
                admin.get("/console/login").body(),
                admin.get("/console/generate").body(),
                admin.get("/console/jobs").body(),
                admin.get("/console/jobs?state=manual_review").body(),
                admin.get("/console/jobs/" + parked).body(),
                admin.get("/console/review").body(),
                admin.get("/console/providers").body(),
                admin.firstEvent("/console/stream/jobs"),
                admin.firstEvent("/console/stream/jobs/" + parked),
                generated.body(),
                replayed.body());
        assertThat(pages)
                .allSatisfy(page -> assertThat(page)
                        .isNotBlank()
                        .doesNotContain(TestServer.ADMIN_KEY)
                        .doesNotContain(TestServer.ADMIN_KEY.substring(5, 20)));
        assertThat(admin.firstEvent("/console/stream/jobs/" + parked)).startsWith("event: trace");
    }

    @Test
    void aFloodOfAnonymousSignInPagesLeavesASignedInOperatorSignedIn() throws Exception {
        ConsoleClient admin = ConsoleClient.signedIn(base, TestServer.ADMIN_KEY);
        var http = java.net.http.HttpClient.newHttpClient();
        var page = java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/console/login"))
                .build();
        var ok = new java.util.concurrent.atomic.AtomicInteger();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(4)) {
            for (int i = 0; i <= SessionTable.CAPACITY; i++) {
                pool.submit(() -> {
                    var reply = http.send(page, HttpResponse.BodyHandlers.ofString());
                    if (reply.statusCode() == 200
                            && reply.headers()
                                    .firstValue("Set-Cookie")
                                    .orElse("")
                                    .startsWith(ConsoleSessions.FORM_COOKIE)) {
                        ok.incrementAndGet();
                    }
                    return null;
                });
            }
        }
        assertThat(ok).hasValue(SessionTable.CAPACITY + 1);
        assertThat(admin.get("/console/review").uri().getPath()).isEqualTo("/console/review");
    }

    @Test
    void signOutEndsTheSessionAndItsStreams() {
        ConsoleClient admin = ConsoleClient.signedIn(base, TestServer.ADMIN_KEY);
        HttpResponse<String> out = admin.postWithToken("/console/logout", Map.of());
        assertThat(out.uri().getPath()).isEqualTo("/console/login");
        assertThat(admin.get("/console/jobs").uri().getPath()).isEqualTo("/console/login");
        assertThat(admin.firstEvent("/console/stream/jobs")).isEqualTo("HTTP 401");
    }

    @Test
    void aRevokedKeyEndsItsConsoleSession() {
        var created = server.post("/v1/admin/keys", TestServer.ADMIN_KEY, "{\"owner\":\"bob\",\"role\":\"operator\"}");
        ConsoleClient bob =
                ConsoleClient.signedIn(base, created.body().get("key").asText());
        assertThat(bob.get("/console/review").statusCode()).isEqualTo(200);
        server.send(
                "DELETE", "/v1/admin/keys/" + created.body().get("id").asText(), TestServer.ADMIN_KEY, null, Map.of());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> bob.get("/console/review").uri().getPath().equals("/console/login"));
    }
}
