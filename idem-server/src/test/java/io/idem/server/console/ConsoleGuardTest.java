package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.TestServer;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
}
