package io.idem.server.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One browser's signed-in console session, held only in this node's memory. The API key it signed
 * in with stays here, on the server: the browser holds only the random session id. Each request
 * authenticates the key again, so a revoked key stops working in the console too. Thread-safe.
 */
final class ConsoleSession {
    private final String id;
    private final String secret;
    private final String csrf;
    private final Instant createdAt;
    private volatile Instant lastSeen;
    private volatile LastSubmission last;
    private volatile String flash;

    /** The last job the Generate page sent, so that "Idempotent replay" can send it again verbatim. */
    record LastSubmission(ObjectNode body, String idempotencyKey, UUID jobId, GenerateForm form) {
        LastSubmission {
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(idempotencyKey, "idempotencyKey");
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(form, "form");
        }
    }

    ConsoleSession(String id, String secret, String csrf, Instant now) {
        this.id = Objects.requireNonNull(id, "id");
        this.secret = Objects.requireNonNull(secret, "secret");
        this.csrf = Objects.requireNonNull(csrf, "csrf");
        this.createdAt = now;
        this.lastSeen = now;
    }

    String id() {
        return id;
    }

    /** The API key behind this session. Never rendered. */
    String secret() {
        return secret;
    }

    String csrf() {
        return csrf;
    }

    Instant createdAt() {
        return createdAt;
    }

    Instant lastSeen() {
        return lastSeen;
    }

    void seen(Instant now) {
        lastSeen = now;
    }

    LastSubmission last() {
        return last;
    }

    void remember(LastSubmission submission) {
        last = submission;
    }

    /** A one-time message for the next page (after a redirect). */
    void flash(String message) {
        flash = message;
    }

    String takeFlash() {
        String message = flash;
        flash = null;
        return message;
    }

    @Override
    public String toString() {
        return "ConsoleSession[createdAt=" + createdAt + ", lastSeen=" + lastSeen + "]";
    }
}
