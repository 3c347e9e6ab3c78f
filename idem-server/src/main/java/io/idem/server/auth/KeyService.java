package io.idem.server.auth;

import io.idem.core.domain.ApiKey;
import io.idem.core.domain.Role;
import io.idem.core.spi.ApiKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Issues and checks API keys. Secrets are {@code idem_} + 32 random base64url characters, stored
 * only as SHA-256 hashes; a short in-memory cache keeps the hot path off the database (a
 * revocation on another node takes effect within {@link #CACHE_FOR}). Thread-safe.
 */
public final class KeyService {
    static final Duration CACHE_FOR = Duration.ofSeconds(5);
    private static final Pattern OWNER = Pattern.compile("[A-Za-z0-9._@-]{1,64}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ApiKeys keys;
    private final InstantSource clock;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    private record Cached(Optional<ApiKey> key, long until) {}

    /** A new key and its secret, which is shown once and never again. */
    public record Issued(ApiKey key, String secret) {}

    public KeyService(ApiKeys keys, InstantSource clock) {
        this.keys = keys;
        this.clock = clock;
    }

    public static boolean validOwner(String owner) {
        return owner != null && OWNER.matcher(owner).matches();
    }

    public Issued issue(String owner, Role role) {
        if (!validOwner(owner)) {
            throw new IllegalArgumentException("owner must be 1..64 of letters, digits, '.', '_', '@', '-'");
        }
        String secret = newSecret();
        ApiKey key = keys.insert(UUID.randomUUID(), prefixOf(secret), hash(secret), owner, role, clock.instant());
        return new Issued(key, secret);
    }

    /** Ensures a given secret exists as an admin key (the {@code IDEM_BOOTSTRAP_KEY}). */
    public void ensureAdmin(String secret) {
        if (secret.length() < 16) {
            throw new IllegalArgumentException("IDEM_BOOTSTRAP_KEY must be at least 16 characters");
        }
        keys.insertAdminIfAbsent(UUID.randomUUID(), prefixOf(secret), hash(secret), clock.instant());
    }

    /**
     * Creates the first admin key when no live admin key exists. Of several nodes starting together
     * on an empty database exactly one gets the key back (to print once); the others get empty.
     */
    public Optional<Issued> issueFirstAdmin() {
        String secret = newSecret();
        return keys.insertFirstAdmin(UUID.randomUUID(), prefixOf(secret), hash(secret), clock.instant())
                .map(key -> new Issued(key, secret));
    }

    public boolean hasAdmin() {
        return keys.countAdmins() > 0;
    }

    public Optional<ApiKey> authenticate(String secret) {
        if (secret == null || secret.isEmpty() || secret.length() > 512) {
            return Optional.empty();
        }
        String digest = HexFormat.of().formatHex(hash(secret));
        long now = System.nanoTime();
        Cached cached = cache.get(digest);
        if (cached != null && cached.until() - now > 0) {
            return cached.key();
        }
        Optional<ApiKey> found = keys.findActive(hash(secret));
        if (cache.size() > 10_000) {
            cache.clear();
        }
        cache.put(digest, new Cached(found, now + CACHE_FOR.toNanos()));
        return found;
    }

    public List<ApiKey> list() {
        return keys.list();
    }

    public Optional<ApiKey> update(UUID id, ApiKeys.Attributes attributes) {
        Optional<ApiKey> updated = keys.update(id, attributes);
        cache.clear();
        return updated;
    }

    public boolean revoke(UUID id) {
        boolean revoked = keys.revoke(id, clock.instant());
        cache.clear();
        return revoked;
    }

    private static String newSecret() {
        byte[] random = new byte[24];
        RANDOM.nextBytes(random);
        return "idem_" + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    /** A key's first 12 characters: stored and listed as its non-secret prefix. */
    public static String prefixOf(String secret) {
        return secret.substring(0, Math.min(12, secret.length()));
    }

    static byte[] hash(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
