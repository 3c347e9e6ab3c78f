package io.idem.server.config;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The proxies whose {@code X-Forwarded-For} and {@code X-Forwarded-Proto} headers Idem believes:
 * IP addresses and CIDR networks ({@code trusted_proxies} / {@code IDEM_TRUSTED_PROXIES}). A
 * request from any other peer is taken as it arrived; its forwarded headers are ignored.
 * Immutable, thread-safe.
 */
public record TrustedProxies(List<Network> networks) {
    public static final TrustedProxies NONE = new TrustedProxies(List.of());
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    public TrustedProxies {
        networks = List.copyOf(networks);
    }

    /** An address with the number of leading bits that must match; host bits must be zero. */
    public record Network(InetAddress base, int prefixLength) {
        public Network {
            int bits = base.getAddress().length * 8;
            if (prefixLength < 0 || prefixLength > bits) {
                throw new IllegalArgumentException("prefix length must be 0.." + bits + ", was " + prefixLength);
            }
            if (!base.equals(masked(base, prefixLength))) {
                throw new IllegalArgumentException("host bits set beyond /" + prefixLength + " in " + base);
            }
        }

        public boolean contains(InetAddress address) {
            return address.getAddress().length == base.getAddress().length
                    && base.equals(masked(address, prefixLength));
        }

        /** The address with every bit after the first {@code prefixLength} cleared. */
        public static InetAddress masked(InetAddress address, int prefixLength) {
            byte[] bytes = address.getAddress();
            for (int i = 0; i < bytes.length; i++) {
                int keep = Math.clamp(prefixLength - i * 8L, 0, 8);
                bytes[i] &= (byte) (0xFF << (8 - keep));
            }
            try {
                return InetAddress.getByAddress(bytes);
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException("an address of " + bytes.length + " bytes", e);
            }
        }

        @Override
        public String toString() {
            return base.getHostAddress() + "/" + prefixLength;
        }
    }

    /**
     * Parses a comma-separated list of addresses and CIDRs ({@code 10.0.0.0/8, 127.0.0.1, ::1}).
     *
     * @param setting named in the error for a bad entry, which is quoted
     */
    public static TrustedProxies parse(String setting, String value) {
        List<Network> networks = new ArrayList<>();
        for (String entry : value.split(",")) {
            String text = entry.strip();
            if (!text.isEmpty()) {
                networks.add(network(text)
                        .orElseThrow(() -> new ConfigException(setting + ": '" + text
                                + "' is not an IP address or a network in CIDR form (as in 10.0.0.0/8, 127.0.0.1,"
                                + " fd00::/8) with its host bits zero")));
            }
        }
        return new TrustedProxies(networks);
    }

    public boolean trusts(InetAddress address) {
        return networks.stream().anyMatch(n -> n.contains(address));
    }

    /**
     * An IP literal as an address; never a name lookup. IPv4 must be dotted-quad, IPv6 may be
     * bracketed. Empty for anything else.
     */
    public static Optional<InetAddress> address(String text) {
        String literal = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        if (!literal.contains(":") && !IPV4.matcher(literal).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.ofLiteral(literal));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<Network> network(String text) {
        int slash = text.indexOf('/');
        Optional<InetAddress> base = address(slash < 0 ? text : text.substring(0, slash));
        if (base.isEmpty()) {
            return Optional.empty();
        }
        int bits = base.get().getAddress().length * 8;
        try {
            int prefix = slash < 0 ? bits : Integer.parseInt(text.substring(slash + 1));
            return Optional.of(new Network(base.get(), prefix));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return networks.isEmpty() ? "[none]" : networks.toString();
    }
}
