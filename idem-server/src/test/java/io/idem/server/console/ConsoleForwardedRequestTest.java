package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.config.TrustedProxies;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which forwarded headers count: only those from a trusted proxy, and only up to its hop. */
class ConsoleForwardedRequestTest {
    private static final TrustedProxies PROXIES = TrustedProxies.parse("test", "10.0.0.0/8, 192.168.7.1");

    private static ForwardedRequest from(String peer, List<String> forwardedFor, String... proto) {
        return ForwardedRequest.resolve(peer, false, forwardedFor, List.of(proto), PROXIES);
    }

    @Test
    void anUntrustedPeersForwardedHeadersAreIgnored() {
        ForwardedRequest request = from("203.0.113.9", List.of("198.51.100.1"), "https");
        assertThat(request.client().getHostAddress()).isEqualTo("203.0.113.9");
        assertThat(request.overTls()).isFalse();
    }

    @Test
    void behindATrustedProxyTheClientIsTheRightMostUntrustedHop() {
        ForwardedRequest request = from("10.0.0.5", List.of("6.6.6.6, 198.51.100.1", "192.168.7.1"), "https");
        assertThat(request.client().getHostAddress()).isEqualTo("198.51.100.1");
        assertThat(request.overTls()).isTrue();
    }

    @Test
    void onlyTheTrustedProxysOwnProtocolCounts() {
        assertThat(from("10.0.0.5", List.of("198.51.100.1"), "https, http").overTls())
                .isFalse();
        assertThat(from("10.0.0.5", List.of("198.51.100.1"), "http,HTTPS").overTls())
                .isTrue();
        assertThat(from("10.0.0.5", List.of("198.51.100.1")).overTls()).isFalse();
        assertThat(ForwardedRequest.resolve("203.0.113.9", true, List.of(), List.of(), PROXIES)
                        .overTls())
                .isTrue();
    }

    @Test
    void aHopThatIsNoAddressStopsTheWalkAtTheLastTrustedProxy() {
        ForwardedRequest request = from("10.0.0.5", List.of("198.51.100.1, unknown, 10.9.9.9"));
        assertThat(request.client().getHostAddress()).isEqualTo("10.9.9.9");
    }

    @Test
    void withoutForwardedForATrustedProxyIsItselfTheClient() {
        assertThat(from("10.0.0.5", List.of()).client().getHostAddress()).isEqualTo("10.0.0.5");
        assertThat(from("::ffff:10.0.0.5", List.of("[2001:db8::1]")).client().getHostAddress())
                .isEqualTo("2001:db8:0:0:0:0:0:1");
    }
}
