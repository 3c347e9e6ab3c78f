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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * Issues and checks API keys. Secrets are {@code idem_} + 32 random base64url characters, stored
 * only as SHA-256 hashes; a short in-memory cache keeps the hot path off the database (a
 * revocation on another node takes effect within {@link #CACHE_FOR}). A key in use is looked up
 * again in the background shortly before its entry ends, so requests do not wait for the database
 * every few seconds; requests that do need a look-up for one secret at the same time share it.
 * Thread-safe.
 */
public final class KeyService {
    static final Duration CACHE_FOR = Duration.ofSeconds(5);
    /** An entry this close to its end is looked up again in the background by the next request. */
    static final Duration REFRESH_BEFORE = Duration.ofSeconds(1);

    private static final Pattern OWNER = Pattern.compile("[A-Za-z0-9._@-]{1,64}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ApiKeys keys;
    private final InstantSource clock;
    private final LongSupplier nanoTime;
    private final Executor background;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    /** Look-ups in flight, by digest: requests with the same secret share one. */
    private final Map<String, CompletableFuture<Optional<ApiKey>>> lookups = new ConcurrentHashMap<>();
    /** Bumped before the cache is cleared: a look-up that began before that never fills it. */
    private final AtomicLong generation = new AtomicLong();

    /** A look-up's answer, good until {@code until} ({@code System.nanoTime()}, from when the look-up began). */
    private record Cached(Optional<ApiKey> key, long until) {}

    /** A new key and its secret, which is shown once and never again. */
    public record Issued(ApiKey key, String secret) {}

    public KeyService(ApiKeys keys, InstantSource clock) {
        this(
                keys,
                clock,
                System::nanoTime,
                run -> Thread.ofVirtual().name("idem-key-lookup").start(run));
    }

    /** @param background runs the look-ups that requests do not wait for */
    KeyService(ApiKeys keys, InstantSource clock, LongSupplier nanoTime, Executor background) {
        this.keys = keys;
        this.clock = clock;
        this.nanoTime = nanoTime;
        this.background = background;
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
        byte[] hash = hash(secret);
        String digest = HexFormat.of().formatHex(hash);
        Cached cached = cache.get(digest);
        if (cached != null) {
            long left = cached.until() - nanoTime.getAsLong();
            if (left > 0) {
                if (left <= REFRESH_BEFORE.toNanos()) {
                    lookUp(digest, hash, false); // this request goes on with the answer it has
                }
                return cached.key();
            }
        }
        try {
            return lookUp(digest, hash, true).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /**
     * The look-up of one secret, shared with any already in flight; a new one runs on this thread
     * when {@code here}, else in the background. Its answer fills the cache unless the
     * cache was cleared (an update or a revocation) after it began.
     */
    private CompletableFuture<Optional<ApiKey>> lookUp(String digest, byte[] hash, boolean here) {
        CompletableFuture<Optional<ApiKey>> mine = new CompletableFuture<>();
        CompletableFuture<Optional<ApiKey>> running = lookups.putIfAbsent(digest, mine);
        if (running != null) {
            return running;
        }
        Runnable run = () -> {
            try {
                long began = nanoTime.getAsLong();
                long seen = generation.get();
                Optional<ApiKey> found = keys.findActive(hash);
                if (cache.size() > 10_000) {
                    cache.clear();
                }
                Cached entry = new Cached(found, began + CACHE_FOR.toNanos());
                cache.put(digest, entry);
                if (generation.get() != seen) {
                    cache.remove(digest, entry); // cleared meanwhile: this answer may predate the change
                }
                mine.complete(found);
            } catch (RuntimeException | Error e) {
                mine.completeExceptionally(e);
            } finally {
                lookups.remove(digest, mine);
            }
        };
        if (here) {
            run.run();
        } else {
            background.execute(run);
        }
        return mine;
    }

    private void forgetCachedKeys() {
        generation.incrementAndGet();
        cache.clear();
    }

    public List<ApiKey> list() {
        return keys.list();
    }

    public Optional<ApiKey> update(UUID id, ApiKeys.Attributes attributes) {
        Optional<ApiKey> updated = keys.update(id, attributes);
        forgetCachedKeys();
        return updated;
    }

    public boolean revoke(UUID id) {
        boolean revoked = keys.revoke(id, clock.instant());
        forgetCachedKeys();
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
