package io.idem.providers.http.wire;

import java.net.URI;
import java.util.Locale;

/** Where a connection goes: scheme, host and port. Connections are pooled per route. */
record Route(boolean secure, String host, int port) {
    Route {
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("a route needs a host");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be 1..65535, was " + port);
        }
    }

    /** The route of {@code uri}, or null when this client does not speak its scheme. */
    static Route of(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean secure = scheme.equals("https");
        if (!secure && !scheme.equals("http")) {
            return null;
        }
        String host = uri.getHost();
        if (host == null) {
            return null;
        }
        int port = uri.getPort() == -1 ? (secure ? 443 : 80) : uri.getPort();
        return new Route(secure, host, port);
    }

    /** The {@code Host} header: the port only when it is not the scheme's default. */
    String authority() {
        return port == (secure ? 443 : 80) ? host : host + ":" + port;
    }

    /** The host to resolve: an IPv6 literal without its brackets. */
    String address() {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
