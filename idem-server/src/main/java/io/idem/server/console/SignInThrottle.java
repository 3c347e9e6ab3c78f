package io.idem.server.console;

import io.idem.core.spi.AuditEvent;
import io.idem.server.auth.KeyService;
import io.idem.server.auth.ServerSecret;
import io.idem.server.config.TrustedProxies;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Counts console sign-in attempts per client address and per key prefix, and refuses them before
 * the key is checked once either has made too many ({@link #PER_ADDRESS}, {@link
 * #PER_KEY_PREFIX}). The key prefix is the key's first 12 characters, the part Idem already shows
 * as a key's non-secret prefix: someone guessing the rest of one key from many addresses is
 * throttled too. An IPv6 client counts by its /64 network, which one holder usually has whole.
 *
 * <p>Every attempt that reaches the key check counts; a successful sign-in then clears its
 * address and takes its own attempt back from the prefix. Memory is bounded: each table keeps at
 * most {@code tracked} entries and forgets the least recently used. The attempt that starts a
 * block carries its audit event; attempts refused during the block carry none. Only a keyed hash
 * of the prefix is kept or audited, never the submitted key. Thread-safe: one lock over both
 * tables (sign-ins are rare).
 */
final class SignInThrottle {
    static final String EVENT = "console:signin_throttled";
    static final ThrottleLimits PER_ADDRESS =
            new ThrottleLimits(10, Duration.ofMinutes(15), Duration.ofMinutes(1), Duration.ofHours(1));
    static final ThrottleLimits PER_KEY_PREFIX =
            new ThrottleLimits(20, Duration.ofMinutes(15), Duration.ofMinutes(1), Duration.ofHours(1));
    static final int TRACKED = 10_000;

    private final InstantSource clock;
    private final ServerSecret secret;
    private final Map<String, Strikes> addresses;
    private final Map<String, Strikes> prefixes;

    SignInThrottle(InstantSource clock, ServerSecret secret) {
        this(clock, secret, TRACKED);
    }

    SignInThrottle(InstantSource clock, ServerSecret secret, int tracked) {
        this.clock = clock;
        this.secret = secret;
        this.addresses = recent(tracked);
        this.prefixes = recent(tracked);
    }

    /** Counts this attempt, or refuses it (then the key must not be checked). */
    synchronized SignInAdmission admit(InetAddress client, String submittedKey) {
        Instant now = clock.instant();
        String address = addressOf(client);
        String prefix = prefixDigest(submittedKey);
        Strikes byAddress = addresses.getOrDefault(address, Strikes.NONE);
        Strikes byPrefix = prefixes.getOrDefault(prefix, Strikes.NONE);
        if (byAddress.blocked(now) || byPrefix.blocked(now)) {
            return refused(byAddress, byPrefix, now, List.of());
        }
        Strikes nextAddress = byAddress.afterAttempt(now, PER_ADDRESS);
        Strikes nextPrefix = byPrefix.afterAttempt(now, PER_KEY_PREFIX);
        List<AuditEvent> started = new ArrayList<>();
        if (nextAddress.blocked(now)) {
            addresses.put(address, nextAddress);
            started.add(event(SignInAdmission.Scope.ADDRESS, client, submittedKey, prefix, nextAddress, now));
        }
        if (nextPrefix.blocked(now)) {
            prefixes.put(prefix, nextPrefix);
            started.add(event(SignInAdmission.Scope.KEY_PREFIX, client, submittedKey, prefix, nextPrefix, now));
        }
        if (!started.isEmpty()) {
            return refused(nextAddress, nextPrefix, now, started);
        }
        addresses.put(address, nextAddress);
        prefixes.put(prefix, nextPrefix);
        return new SignInAdmission.Admitted();
    }

    /** The attempt just admitted had the right key. */
    synchronized void succeeded(InetAddress client, String submittedKey) {
        addresses.remove(addressOf(client));
        prefixes.computeIfPresent(prefixDigest(submittedKey), (p, strikes) -> strikes.withoutOneAttempt());
    }

    /** How many addresses and prefixes are remembered (bounded by {@code tracked} each). */
    synchronized int tracked() {
        return addresses.size() + prefixes.size();
    }

    private static SignInAdmission.Refused refused(
            Strikes byAddress, Strikes byPrefix, Instant now, List<AuditEvent> started) {
        long address = byAddress.blocked(now) ? byAddress.retryAfterSeconds(now) : 0;
        long prefix = byPrefix.blocked(now) ? byPrefix.retryAfterSeconds(now) : 0;
        return address >= prefix
                ? new SignInAdmission.Refused(SignInAdmission.Scope.ADDRESS, address, started)
                : new SignInAdmission.Refused(SignInAdmission.Scope.KEY_PREFIX, prefix, started);
    }

    private AuditEvent event(
            SignInAdmission.Scope scope,
            InetAddress client,
            String submittedKey,
            String prefix,
            Strikes strikes,
            Instant now) {
        ThrottleLimits limits = scope == SignInAdmission.Scope.ADDRESS ? PER_ADDRESS : PER_KEY_PREFIX;
        Map<String, String> detail = new LinkedHashMap<>();
        detail.put("throttled_by", scope.wire());
        detail.put("retry_after_seconds", Long.toString(strikes.retryAfterSeconds(now)));
        detail.put("block", Integer.toString(strikes.blocks()));
        detail.put("limit", limits.attempts() + " per " + limits.window().toMinutes() + " min");
        detail.put("prefix_kind", submittedKey.startsWith("idem_") ? "idem" : "other");
        detail.put("prefix_hmac", prefix);
        return new AuditEvent(EVENT, client.getHostAddress(), Optional.empty(), detail, now);
    }

    /** A keyed hash of the key's prefix: the prefix itself could be the start of someone's other secret. */
    private String prefixDigest(String submittedKey) {
        byte[] mac = secret.hmac("console sign-in key prefix", KeyService.prefixOf(submittedKey));
        return HexFormat.of().formatHex(mac, 0, 8);
    }

    private static String addressOf(InetAddress client) {
        return client instanceof Inet6Address
                ? TrustedProxies.Network.masked(client, 64).getHostAddress() + "/64"
                : client.getHostAddress();
    }

    private static Map<String, Strikes> recent(int capacity) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Strikes> eldest) {
                return size() > capacity;
            }
        };
    }
}
