package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.TestServer;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console behind a TLS-terminating proxy, over plain HTTP: 127.0.0.2 stands for the trusted
 * proxy, 127.0.0.1 for a peer that is not one.
 */
class ConsoleGuardTest {
    static final InetAddress PROXY = InetAddress.ofLiteral("127.0.0.2");
    static final InetAddress STRANGER = InetAddress.ofLiteral("127.0.0.1");
    private static TestServer server;
    private static String base;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("IDEM_TRUSTED_PROXIES", "127.0.0.2"));
        base = server.node().baseUrl();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** One exchange with no cookie jar and no redirects, from a given address with given headers. */
    static HttpResponse<String> exchange(InetAddress from, HttpRequest.Builder request, Map<String, String> headers)
            throws Exception {
        headers.forEach(request::header);
        HttpClient http = HttpClient.newBuilder().localAddress(from).build();
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String cookie(HttpResponse<String> reply, String name) {
        return reply.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith(name + "="))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " cookie in " + reply.headers()));
    }

    @Test
    void behindATrustedTlsProxyBothConsoleCookiesAreSecure() throws Exception {
        Map<String, String> proxied = Map.of("X-Forwarded-Proto", "https", "X-Forwarded-For", "198.51.100.20");
        HttpResponse<String> page =
                exchange(PROXY, HttpRequest.newBuilder(URI.create(base + "/console/login")), proxied);
        String formCookie = cookie(page, ConsoleSessions.FORM_COOKIE);
        assertThat(formCookie).contains("; Secure", "HttpOnly", "SameSite=Strict");

        String nonce = formCookie.substring(formCookie.indexOf('=') + 1, formCookie.indexOf(';'));
        String csrf = new ConsoleClient(base).csrfOf(page.body());
        HttpResponse<String> signedIn = exchange(
                PROXY,
                HttpRequest.newBuilder(URI.create(base + "/console/login"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .header("Cookie", ConsoleSessions.FORM_COOKIE + "=" + nonce)
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "_csrf=" + csrf + "&api_key=" + TestServer.ADMIN_KEY)),
                proxied);
        assertThat(signedIn.statusCode()).isEqualTo(303);
        assertThat(cookie(signedIn, ConsoleSessions.COOKIE)).contains("; Secure", "HttpOnly", "Path=/console");
    }

    @Test
    void aPeerThatIsNoTrustedProxyCannotClaimTlsWithAForgedHeader() throws Exception {
        HttpResponse<String> page = exchange(
                STRANGER,
                HttpRequest.newBuilder(URI.create(base + "/console/login")),
                Map.of("X-Forwarded-Proto", "https", "X-Forwarded-For", "198.51.100.21"));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(cookie(page, ConsoleSessions.FORM_COOKIE)).doesNotContain("Secure");
    }

    /** A browser behind the trusted proxy, whose client address the proxy reports as {@code client}. */
    static ConsoleClient behindProxy(String client) {
        return new ConsoleClient(base, PROXY, Map.of("X-Forwarded-For", "6.6.6.6, " + client));
    }

    static HttpResponse<String> trySignIn(ConsoleClient browser, String key) {
        String csrf = browser.csrfOf(browser.get("/console/login").body());
        return browser.post("/console/login", Map.of("_csrf", csrf, "api_key", key));
    }

    /** The throttle events stored for this actor: their detail as JSON text. */
    static List<String> throttleEvents(String actor) {
        return server.node().database().withConnection(c -> {
            try (var ps = c.prepareStatement(
                    "SELECT detail::text FROM audit_events WHERE type = 'console:signin_throttled' AND actor = ?"
                            + " ORDER BY id")) {
                ps.setString(1, actor);
                try (var rs = ps.executeQuery()) {
                    List<String> details = new java.util.ArrayList<>();
                    while (rs.next()) {
                        details.add(rs.getString(1));
                    }
                    return details;
                }
            }
        });
    }

    @Test
    void afterTenFailedSignInsTheNextIsRefusedWith429AndTheKeyIsNotChecked() {
        ConsoleClient browser = behindProxy("198.51.100.30");
        for (int i = 0; i < SignInThrottle.PER_ADDRESS.attempts(); i++) {
            assertThat(trySignIn(browser, "idem_wrong_" + i).statusCode()).isEqualTo(401);
        }
        HttpResponse<String> refused = trySignIn(browser, TestServer.ADMIN_KEY);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).contains("60");
        assertThat(refused.body())
                .contains("Too many failed sign-ins from your address", "Try again in 60 seconds")
                .contains("name=\"_csrf\"");
        assertThat(browser.get("/console/generate").uri().getPath()).isEqualTo("/console/login");
        assertThat(trySignIn(browser, TestServer.ADMIN_KEY).statusCode()).isEqualTo(429);

        List<String> events = throttleEvents("198.51.100.30");
        assertThat(events)
                .singleElement()
                .satisfies(detail -> assertThat(detail)
                        .contains("\"throttled_by\": \"address\"", "\"retry_after_seconds\": \"60\"")
                        .doesNotContain("idem_wrong", TestServer.ADMIN_KEY.substring(0, 12)));
        // another client behind the same proxy is not affected
        assertThat(trySignIn(behindProxy("198.51.100.31"), TestServer.ADMIN_KEY)
                        .uri()
                        .getPath())
                .isEqualTo("/console/generate");
    }

    @Test
    void aSuccessfulSignInClearsTheAddressesFailures() {
        ConsoleClient browser = behindProxy("198.51.100.40");
        for (int i = 0; i < SignInThrottle.PER_ADDRESS.attempts() - 1; i++) {
            assertThat(trySignIn(browser, "idem_wrong_" + i).statusCode()).isEqualTo(401);
        }
        assertThat(trySignIn(browser, TestServer.ADMIN_KEY).uri().getPath()).isEqualTo("/console/generate");
        ConsoleClient again = behindProxy("198.51.100.40");
        for (int i = 0; i < SignInThrottle.PER_ADDRESS.attempts(); i++) {
            assertThat(trySignIn(again, "idem_wrong_" + i).statusCode()).isEqualTo(401);
        }
        assertThat(throttleEvents("198.51.100.40")).isEmpty();
    }

    @Test
    void oneKeyGuessedFromManyAddressesIsThrottledByItsPrefix() {
        String target = server.newKey("target", "operator");
        String prefix = target.substring(0, 12);
        for (int i = 0; i < SignInThrottle.PER_KEY_PREFIX.attempts(); i++) {
            assertThat(trySignIn(behindProxy("198.51.100." + (100 + i)), prefix + "guess" + i)
                            .statusCode())
                    .isEqualTo(401);
        }
        HttpResponse<String> refused = trySignIn(behindProxy("198.51.100.200"), prefix + "guess");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).contains("keys that start like this one");
        // the block holds even for the real key: it is not checked while the prefix is blocked
        assertThat(trySignIn(behindProxy("198.51.100.201"), target).statusCode())
                .isEqualTo(429);
        assertThat(throttleEvents("198.51.100.200"))
                .singleElement()
                .satisfies(detail -> assertThat(detail)
                        .contains("\"throttled_by\": \"key_prefix\"", "\"prefix_kind\": \"idem\"", "prefix_hmac")
                        .doesNotContain(prefix.substring(5)));
        assertThat(throttleEvents("198.51.100.201")).isEmpty();
    }

    @Test
    void aPeerThatIsNoTrustedProxyIsThrottledByItsOwnAddressWhateverItForwards() {
        for (int i = 0; i < SignInThrottle.PER_ADDRESS.attempts(); i++) {
            ConsoleClient forger = new ConsoleClient(base, STRANGER, Map.of("X-Forwarded-For", "192.0.2." + i));
            assertThat(trySignIn(forger, "idem_forged_" + i).statusCode()).isEqualTo(401);
        }
        ConsoleClient forger = new ConsoleClient(base, STRANGER, Map.of("X-Forwarded-For", "192.0.2.99"));
        assertThat(trySignIn(forger, TestServer.ADMIN_KEY).statusCode()).isEqualTo(429);
        assertThat(throttleEvents("127.0.0.1")).hasSize(1);
        assertThat(throttleEvents("192.0.2.99")).isEmpty();
    }
}
