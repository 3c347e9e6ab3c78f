package io.idem.server.outbound;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signing: {@code webhook-id}, {@code webhook-timestamp} (Unix seconds) and
 * {@code webhook-signature} = {@code v1,} base64 HMAC-SHA256 over {@code id.timestamp.body}, keyed
 * with the secret's bytes (base64 after a {@code whsec_} prefix; a secret without the prefix is
 * used as its UTF-8 bytes). Shared by the alert webhook channel and event webhooks. Thread-safe.
 */
public final class WebhookSignature {
    private final byte[] key;
    private final InstantSource clock;

    public WebhookSignature(String secret, InstantSource clock) {
        this.key = secret.startsWith("whsec_")
                ? Base64.getDecoder().decode(secret.substring("whsec_".length()))
                : secret.getBytes(StandardCharsets.UTF_8);
        this.clock = clock;
    }

    /** The three headers for a message {@code id} with this body, stamped now. */
    public Map<String, String> headers(String id, byte[] body) {
        String timestamp = Long.toString(clock.instant().getEpochSecond());
        return Map.of(
                "webhook-id", id,
                "webhook-timestamp", timestamp,
                "webhook-signature", "v1," + sign(id, timestamp, body));
    }

    /** The base64 signature of {@code id.timestamp.body}, without the {@code v1,} prefix. */
    public String sign(String id, String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
