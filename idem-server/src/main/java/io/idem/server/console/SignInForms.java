package io.idem.server.console;

import io.idem.server.auth.ServerSecret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Optional;

/**
 * The sign-in form's CSRF token, with no server state: the browser holds a nonce cookie ({@code
 * issued-at-seconds.random}) and the form carries the server secret's HMAC of it. A GET of the
 * sign-in page therefore stores nothing, so a flood of them costs the server nothing and can
 * evict nothing. Any node sharing the server secret accepts the form. Thread-safe (immutable).
 */
final class SignInForms {
    static final Duration LIFETIME = Duration.ofMinutes(30);

    private final ServerSecret secret;
    private final InstantSource clock;

    /** The nonce for the cookie and the token for the form's hidden field. */
    record Form(String nonce, String token) {}

    SignInForms(ServerSecret secret, InstantSource clock) {
        this.secret = secret;
        this.clock = clock;
    }

    Form issue() {
        String nonce = clock.instant().getEpochSecond() + "." + SessionTable.newToken();
        return new Form(nonce, tokenFor(nonce));
    }

    /** The form for a nonce the browser already holds, while it is fresh (so open tabs agree). */
    Optional<Form> reuse(String nonce) {
        return fresh(nonce) ? Optional.of(new Form(nonce, tokenFor(nonce))) : Optional.empty();
    }

    /** Whether the nonce is fresh and the submitted token is its HMAC (compared in constant time). */
    boolean matches(String nonce, String submitted) {
        return submitted != null
                && fresh(nonce)
                && MessageDigest.isEqual(
                        tokenFor(nonce).getBytes(StandardCharsets.US_ASCII),
                        submitted.getBytes(StandardCharsets.UTF_8));
    }

    boolean fresh(String nonce) {
        if (nonce == null || nonce.length() > 100) {
            return false;
        }
        int dot = nonce.indexOf('.');
        long issued;
        try {
            issued = Long.parseLong(nonce.substring(0, Math.max(dot, 0)));
        } catch (NumberFormatException e) {
            return false;
        }
        Instant now = clock.instant();
        Instant at = Instant.ofEpochSecond(issued);
        return !at.isAfter(now) && !at.plus(LIFETIME).isBefore(now);
    }

    private String tokenFor(String nonce) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(secret.hmac("console sign-in form", nonce));
    }
}
