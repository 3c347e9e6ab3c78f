package io.idem.server.outbound;

import io.idem.server.http.ApiError;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which addresses Idem may POST events to (subscriptions, a job's {@code callback_url}): absolute
 * {@code http}/{@code https} URLs of at most {@value #MAX_LENGTH} characters with a host, no user
 * info and no fragment. Unless private addresses are allowed, a host that is a literal loopback,
 * private, link-local, shared (100.64/10), unspecified or multicast address is refused, as are {@code
 * localhost} names and numeric hosts in any form but a plain dotted quad. Names are not resolved:
 * a name that resolves to a private address is a matter for the network's egress rules. Thread-safe.
 */
public final class OutboundUrls {
    public static final int MAX_LENGTH = 2048;
    private static final Pattern NUMERIC_HOST = Pattern.compile("(0x[0-9a-f]*|[0-9]+)(\\.(0x[0-9a-f]*|[0-9]+))*\\.?");
    private static final Pattern DOTTED_QUAD = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}");

    private final boolean allowPrivate;

    /** {@code allowPrivate}: also private and loopback addresses ({@code webhooks.allow_private_urls}). */
    public OutboundUrls(boolean allowPrivate) {
        this.allowPrivate = allowPrivate;
    }

    /**
     * {@code value} as an address events may go to, else {@code 400 invalid_<field>} (not a usable
     * URL) or {@code 400 <field>_not_allowed} (a private address).
     */
    public URI check(String field, String value) {
        if (value == null || value.isBlank() || value.length() > MAX_LENGTH) {
            throw invalid(field, "must be an http or https URL of at most " + MAX_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            throw invalid(field, "is not a valid URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw invalid(field, "must be an absolute http or https URL with a host");
        }
        if (uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            throw invalid(field, "must not carry user info or a #fragment");
        }
        refusal(uri).ifPresent(why -> {
            throw new ApiError(400, field + "_not_allowed", field + " " + why);
        });
        return uri;
    }

    /** Why events may not go to {@code uri}'s host, if they may not. */
    public Optional<String> refusal(URI uri) {
        if (allowPrivate) {
            return Optional.empty();
        }
        String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.equals("localhost") || host.endsWith(".localhost") || host.equals("localhost.")) {
            return Optional.of("names a loopback host");
        }
        boolean literal = host.contains(":") || DOTTED_QUAD.matcher(host).matches();
        if (!literal && NUMERIC_HOST.matcher(host).matches()) {
            return Optional.of("is a numeric host in an unusual form; write a plain dotted quad");
        }
        if (literal) {
            try {
                if (isPrivate(InetAddress.ofLiteral(host))) {
                    return Optional.of("is a private, loopback or link-local address");
                }
            } catch (IllegalArgumentException e) {
                return Optional.of("is not a valid IP address");
            }
        }
        return Optional.empty();
    }

    static boolean isPrivate(InetAddress address) {
        if (address.isLoopbackAddress()
                || address.isAnyLocalAddress()
                || address.isLinkLocalAddress()
                || address.isSiteLocalAddress()
                || address.isMulticastAddress()) {
            return true;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet6Address) {
            boolean uniqueLocal = (b[0] & 0xfe) == 0xfc;
            boolean embedsV4 = Arrays.equals(Arrays.copyOf(b, 12), new byte[12])
                    || Arrays.equals(
                            Arrays.copyOf(b, 12),
                            new byte[] {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0});
            return uniqueLocal || embedsV4 && isPrivate(v4(Arrays.copyOfRange(b, 12, 16)));
        }
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        return first == 0
                || first >= 240
                || first == 100 && (second & 0xc0) == 64
                || first == 198 && (second & 0xfe) == 18;
    }

    private static InetAddress v4(byte[] bytes) {
        try {
            return Inet4Address.getByAddress(bytes);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an IPv4 address", e);
        }
    }

    private static ApiError invalid(String field, String why) {
        return ApiError.badRequest("invalid_" + field, field + " " + why);
    }
}
