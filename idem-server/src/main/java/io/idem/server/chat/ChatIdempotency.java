package io.idem.server.chat;

import io.idem.core.spi.ChatIdempotencyStore;
import io.idem.server.auth.ServerSecret;
import io.idem.server.http.Caller;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * {@code Idempotency-Key} on chat: keys are stored only as {@code HMAC(server secret, owner ‖ key)};
 * a running call holds its key for the chain's deadline plus a margin, then its finished answer is
 * kept for the retention window. A call that ends without an answer frees the key. Thread-safe.
 */
final class ChatIdempotency {
    private static final Duration MARGIN = Duration.ofSeconds(30);

    private final ChatIdempotencyStore store;
    private final ServerSecret secret;
    private final Duration retention;
    private final InstantSource clock;

    ChatIdempotency(ChatIdempotencyStore store, ServerSecret secret, Duration retention, InstantSource clock) {
        this.store = store;
        this.secret = secret;
        this.retention = retention;
        this.clock = clock;
    }

    byte[] digest(Caller caller, String key) {
        return secret.hmac("chat-idempotency", caller.owner(), key);
    }

    ChatIdempotencyStore.Claim claim(byte[] digest, Caller caller, byte[] requestHash, Duration deadline) {
        Instant now = clock.instant();
        return store.claim(
                digest, caller.owner(), requestHash, now, now.plus(deadline).plus(MARGIN), now.plus(retention));
    }

    void finish(byte[] digest, Stored stored) {
        store.finish(digest, stored.body(), stored.servedModel(), stored.attempts());
    }

    void release(byte[] digest) {
        store.release(digest);
    }

    /** How long a client should wait before asking again for a key held until {@code lockedUntil}: 1..5 s. */
    Duration retryAfter(Instant lockedUntil) {
        long seconds = Duration.between(clock.instant(), lockedUntil).toSeconds();
        return Duration.ofSeconds(Math.max(1, Math.min(seconds, 5)));
    }

    /** A finished call's answer as it is kept for replay. */
    record Stored(String body, String servedModel, String attempts) {}
}
