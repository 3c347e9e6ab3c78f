package io.idem.server.console;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The signed-in console sessions of this node, by random id. Only a valid API key makes one: a
 * visitor who has not signed in holds no entry here (see {@link SignInForms}), so no number of
 * anonymous requests can push a signed-in operator out.
 *
 * <p>Bounds: each key holds at most {@code perKey} sessions (its next sign-in ends its own least
 * recently seen one), and the table at most {@code capacity}. When the table is full, expired
 * sessions are dropped; if it is still full, the sign-in is refused rather than ending another
 * key's live session. Thread-safe: lookups are lock-free, starts are serialized so the bounds hold.
 */
final class SessionTable {
    static final Duration IDLE = Duration.ofHours(8);
    static final Duration MAX_AGE = Duration.ofHours(24);
    static final int CAPACITY = 10_000;
    static final int PER_KEY = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, ConsoleSession> sessions = new ConcurrentHashMap<>();
    private final InstantSource clock;
    private final int capacity;
    private final int perKey;

    SessionTable(InstantSource clock) {
        this(clock, CAPACITY, PER_KEY);
    }

    SessionTable(InstantSource clock, int capacity, int perKey) {
        if (capacity < 1 || perKey < 1 || perKey > capacity) {
            throw new IllegalArgumentException(
                    "need 1 <= perKey <= capacity, was perKey=" + perKey + ", capacity=" + capacity);
        }
        this.clock = clock;
        this.capacity = capacity;
        this.perKey = perKey;
    }

    /** The live session with this id (it counts as seen now), if any. */
    Optional<ConsoleSession> find(String id) {
        ConsoleSession session = id == null ? null : sessions.get(id);
        if (session == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (expired(session, now)) {
            sessions.remove(id, session);
            return Optional.empty();
        }
        session.seen(now);
        return Optional.of(session);
    }

    /** A new session for a key just checked, or empty when the table is full of live sessions. */
    synchronized Optional<ConsoleSession> tryStart(String secret) {
        Instant now = clock.instant();
        sessions.values().stream()
                .filter(s -> s.secret().equals(secret))
                .sorted(Comparator.comparing(ConsoleSession::lastSeen).reversed())
                .skip(perKey - 1)
                .forEach(s -> sessions.remove(s.id(), s));
        if (sessions.size() >= capacity) {
            sessions.values().removeIf(s -> expired(s, now));
        }
        if (sessions.size() >= capacity) {
            return Optional.empty();
        }
        ConsoleSession session = new ConsoleSession(newToken(), secret, newToken(), now);
        sessions.put(session.id(), session);
        return Optional.of(session);
    }

    void end(String id) {
        if (id != null) {
            sessions.remove(id);
        }
    }

    /** Whether this very session is still in the table and unexpired. */
    boolean live(ConsoleSession session) {
        return sessions.get(session.id()) == session && !expired(session, clock.instant());
    }

    int size() {
        return sessions.size();
    }

    /** 32 random bytes, base64url: session ids, CSRF tokens, sign-in form nonces. */
    static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static boolean expired(ConsoleSession session, Instant now) {
        return session.lastSeen().plus(IDLE).isBefore(now)
                || session.createdAt().plus(MAX_AGE).isBefore(now);
    }
}
