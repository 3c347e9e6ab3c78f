package io.idem.server.console;

import io.javalin.http.Context;
import java.security.MessageDigest;
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
 * The console's server-side sessions, keyed by a random id that travels in an HttpOnly,
 * SameSite=Strict cookie scoped to {@code /console}. Sign-in issues a fresh id (no fixation);
 * idle and old sessions expire. Sessions live in this node's memory only: after a restart, or on
 * another node, the operator signs in again. Thread-safe.
 */
final class ConsoleSessions {
    static final String COOKIE = "idem_console";
    static final String CSRF_FIELD = "_csrf";
    private static final Duration IDLE = Duration.ofHours(8);
    private static final Duration MAX_AGE = Duration.ofHours(24);
    private static final Duration ANONYMOUS_IDLE = Duration.ofMinutes(30);
    private static final int MAX_SESSIONS = 10_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, ConsoleSession> sessions = new ConcurrentHashMap<>();
    private final InstantSource clock;

    ConsoleSessions(InstantSource clock) {
        this.clock = clock;
    }

    /** The live session named by the request's cookie, if any. */
    Optional<ConsoleSession> find(Context ctx) {
        String id = ctx.cookie(COOKIE);
        if (id == null) {
            return Optional.empty();
        }
        ConsoleSession session = sessions.get(id);
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

    /** The request's session, or a new anonymous one (it carries the sign-in form's CSRF token). */
    ConsoleSession findOrStart(Context ctx) {
        return find(ctx).orElseGet(() -> start(ctx, null));
    }

    /** Replaces whatever session the browser had with a signed-in one under a new id. */
    ConsoleSession signIn(Context ctx, String secret) {
        end(ctx);
        return start(ctx, secret);
    }

    void end(Context ctx) {
        String id = ctx.cookie(COOKIE);
        if (id != null) {
            sessions.remove(id);
        }
        ctx.header("Set-Cookie", COOKIE + "=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict" + secure(ctx));
    }

    /** Whether this session is still live (a signed-out session ends its live streams). */
    boolean live(ConsoleSession session) {
        return sessions.get(session.id()) == session && !expired(session, clock.instant());
    }

    /** Constant-time comparison of the submitted token with the session's. */
    static boolean csrfMatches(ConsoleSession session, String submitted) {
        return submitted != null && MessageDigest.isEqual(session.csrf().getBytes(), submitted.getBytes());
    }

    private ConsoleSession start(Context ctx, String secret) {
        Instant now = clock.instant();
        if (sessions.size() >= MAX_SESSIONS) {
            evict(now);
        }
        ConsoleSession session = new ConsoleSession(token(), secret, token(), now);
        sessions.put(session.id(), session);
        ctx.header(
                "Set-Cookie", COOKIE + "=" + session.id() + "; Path=/console; HttpOnly; SameSite=Strict" + secure(ctx));
        return session;
    }

    private void evict(Instant now) {
        sessions.values().removeIf(s -> expired(s, now));
        while (sessions.size() >= MAX_SESSIONS) {
            sessions.values().stream()
                    .min(Comparator.comparing(ConsoleSession::lastSeen))
                    .ifPresent(oldest -> sessions.remove(oldest.id()));
        }
    }

    private static boolean expired(ConsoleSession session, Instant now) {
        Duration idle = session.signedIn() ? IDLE : ANONYMOUS_IDLE;
        return session.lastSeen().plus(idle).isBefore(now)
                || session.createdAt().plus(MAX_AGE).isBefore(now);
    }

    private static String secure(Context ctx) {
        return "https".equals(ctx.scheme()) ? "; Secure" : "";
    }

    private static String token() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
