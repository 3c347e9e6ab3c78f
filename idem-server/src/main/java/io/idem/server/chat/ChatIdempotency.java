package io.idem.server.chat;

import io.idem.core.spi.ChatIdempotencyStore;
import io.idem.core.spi.ChatIdempotencyStore.Claim;
import io.idem.server.auth.ServerSecret;
import io.idem.server.http.ApiError;
import io.idem.server.http.ApiErrors;
import io.idem.server.http.Caller;
import io.idem.server.http.RetryAdvice;
import io.idem.server.http.RetryMerge;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Idempotency on chat. A client's {@code Idempotency-Key} is stored only as {@code HMAC(server
 * secret, owner ‖ key)}; a running call holds it for the chain's deadline plus a margin, then its
 * answer is kept for the retention window, and a call that ends without an answer frees it.
 *
 * <p>A keyless request that {@link RetryMerge} tracks holds an implicit key, {@code HMAC(secret,
 * api key id ‖ request hash)}: an SDK's retry of it waits (409 {@code idempotency_key_in_use} with
 * {@code x-should-retry: true}) while it runs and then gets its answer. That key also keeps a
 * failure once a model was called, so a retry replays the failure instead of calling the models
 * again; a failure that called nothing frees it. Thread-safe.
 */
final class ChatIdempotency {
    private static final Duration MARGIN = Duration.ofSeconds(30);
    /** A fresh call's {@code countsFrom}: every earlier claim is older, so it is taken over. */
    private static final Instant EVERY_CLAIM_IS_OLDER = Instant.parse("9999-12-31T00:00:00Z");

    private final ChatIdempotencyStore store;
    private final ServerSecret secret;
    private final Duration retention;
    private final RetryMerge merge;
    private final InstantSource clock;

    ChatIdempotency(
            ChatIdempotencyStore store,
            ServerSecret secret,
            Duration retention,
            RetryMerge merge,
            InstantSource clock) {
        this.store = store;
        this.secret = secret;
        this.retention = retention;
        this.merge = merge;
        this.clock = clock;
    }

    /** A key a running call holds: {@link #end} it with the call's answer. */
    record Hold(byte[] digest, UUID holder, boolean implicit) {}

    /** What a request's key lets it do. */
    sealed interface Entry {
        /** Run the call, holding the key when there is one. */
        record Run(Optional<Hold> hold) implements Entry {}

        /** Answer with what the first request answered. */
        record Replay(Claim.Finished finished) implements Entry {}
    }

    /** Claims the request's key ({@code key}, else its implicit one); a 409 while another call holds it. */
    Entry enter(Context ctx, Caller caller, String key, ParsedCall call) {
        Optional<RetryMerge.Tracking> tracking = key == null ? merge.track(ctx, caller) : Optional.empty();
        if (key == null && tracking.isEmpty()) {
            return new Entry.Run(Optional.empty());
        }
        Instant now = clock.instant();
        Instant lockedUntil = now.plus(call.chain().deadline()).plus(MARGIN);
        Hold hold;
        Instant expiresAt;
        Instant countsFrom;
        if (key != null) {
            hold = new Hold(secret.hmac("chat-idempotency", caller.owner(), key), UUID.randomUUID(), false);
            expiresAt = now.plus(retention);
            countsFrom = Instant.EPOCH;
        } else {
            RetryMerge.Tracking t = tracking.get();
            String hash = HexFormat.of().formatHex(call.hash());
            hold = new Hold(
                    secret.hmac("chat-implicit-idempotency", caller.key().id().toString(), hash),
                    UUID.randomUUID(),
                    true);
            Instant kept = now.plus(t.keep());
            expiresAt = kept.isAfter(lockedUntil) ? kept : lockedUntil;
            countsFrom = t.window().map(now::minus).orElse(EVERY_CLAIM_IS_OLDER);
        }
        var ticket = new ChatIdempotencyStore.Ticket(
                hold.digest(),
                caller.owner(),
                call.hash(),
                hold.holder(),
                ApiErrors.requestId(ctx),
                now,
                lockedUntil,
                expiresAt,
                countsFrom);
        return switch (store.claim(ticket)) {
            case Claim.Claimed claimed -> new Entry.Run(Optional.of(hold));
            case Claim.Finished finished -> new Entry.Replay(finished);
            case Claim.InUse inUse -> throw inUse(hold, inUse.lockedUntil());
            case Claim.Reused reused ->
                throw new ApiError(
                        409, "idempotency_key_reused", "this Idempotency-Key was used with a different request");
        };
    }

    /**
     * A running call holds the key. An SDK's retry of a keyless call may wait for it: its key keeps
     * whatever the call ends with. A client's key is freed when its call fails, so an automatic
     * retry could call the models again: it is told not to.
     */
    private ApiError inUse(Hold hold, Instant lockedUntil) {
        Duration wait = retryAfter(lockedUntil);
        return hold.implicit()
                ? new ApiError(
                        409,
                        "idempotency_key_in_use",
                        "an identical call from this key is still running; its answer will be replayed",
                        Map.of(),
                        RetryAdvice.after(wait))
                : new ApiError(
                        409,
                        "idempotency_key_in_use",
                        "a call with this Idempotency-Key is still running; retry later",
                        Map.of(),
                        RetryAdvice.neverBefore(wait));
    }

    /**
     * Ends a held key: keeps a served answer; for an implicit key also a failure after a model was
     * called (everything but an empty {@code answer}); frees it otherwise.
     */
    void end(Hold hold, Optional<ChatIdempotencyStore.Answer> answer) {
        boolean keep = answer.isPresent() && (hold.implicit() || answer.get().status() == 200);
        if (keep) {
            store.finish(hold.digest(), hold.holder(), answer.get());
        } else {
            store.release(hold.digest(), hold.holder());
        }
    }

    /** How long a client should wait before asking again for a key held until {@code lockedUntil}: 1..5 s. */
    Duration retryAfter(Instant lockedUntil) {
        long seconds = Duration.between(clock.instant(), lockedUntil).toSeconds();
        return Duration.ofSeconds(Math.max(1, Math.min(seconds, 5)));
    }
}
