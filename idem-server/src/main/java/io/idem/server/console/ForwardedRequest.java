package io.idem.server.console;

import io.idem.server.config.TrustedProxies;
import io.javalin.http.Context;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Who sent a request and whether it reached the first proxy over TLS. The forwarded headers count
 * only when the direct peer is a trusted proxy: then the client is the right-most {@code
 * X-Forwarded-For} hop that is not itself a trusted proxy (the hops left of it could be written by
 * anyone), and {@code X-Forwarded-Proto} (its right-most value, the peer's own) says whether TLS
 * was used. From any other peer the headers are ignored.
 *
 * @param client the address to throttle and audit
 * @param overTls whether the browser's connection was TLS (the cookie may then be {@code Secure})
 */
record ForwardedRequest(InetAddress client, boolean overTls) {
    ForwardedRequest {
        Objects.requireNonNull(client, "client");
    }

    static ForwardedRequest of(Context ctx, TrustedProxies proxies) {
        return resolve(
                ctx.req().getRemoteAddr(),
                "https".equals(ctx.scheme()),
                Collections.list(ctx.req().getHeaders("X-Forwarded-For")),
                Collections.list(ctx.req().getHeaders("X-Forwarded-Proto")),
                proxies);
    }

    /** The rule itself, on plain values. */
    static ForwardedRequest resolve(
            String peerAddress,
            boolean directTls,
            List<String> forwardedFor,
            List<String> forwardedProto,
            TrustedProxies proxies) {
        InetAddress peer = TrustedProxies.address(peerAddress)
                .orElseThrow(() -> new IllegalStateException("the peer address is not an IP: " + peerAddress));
        if (!proxies.trusts(peer)) {
            return new ForwardedRequest(peer, directTls);
        }
        List<String> protocols = values(forwardedProto);
        boolean tls = directTls || (!protocols.isEmpty() && "https".equalsIgnoreCase(protocols.getLast()));
        List<String> hops = values(forwardedFor);
        InetAddress client = peer;
        for (int i = hops.size() - 1; i >= 0; i--) {
            var hop = TrustedProxies.address(hops.get(i));
            if (hop.isEmpty()) {
                break; // not an address: a trusted proxy wrote nonsense; believe no further
            }
            client = hop.get();
            if (!proxies.trusts(client)) {
                break;
            }
        }
        return new ForwardedRequest(client, tls);
    }

    /** The comma-separated values of all the header's lines, in order. */
    private static List<String> values(List<String> headers) {
        List<String> values = new ArrayList<>();
        for (String header : headers) {
            for (String value : header.split(",")) {
                if (!value.isBlank()) {
                    values.add(value.strip());
                }
            }
        }
        return values;
    }
}
