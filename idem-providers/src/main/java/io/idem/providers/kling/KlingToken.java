package io.idem.providers.kling;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The token Kling takes as {@code Authorization: Bearer}: a JWT signed HS256 with the secret key,
 * issued by the access key ({@code iss}), valid from five seconds ago ({@code nbf}) for thirty
 * minutes ({@code exp}). A fresh one is signed per request; neither key is ever printed.
 */
final class KlingToken {
    static final Duration LIFETIME = Duration.ofMinutes(30);
    static final Duration SKEW = Duration.ofSeconds(5);

    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
    private static final String HEADER =
            URL.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));

    private KlingToken() {}

    static String sign(String accessKey, String secretKey, Instant now) {
        String payload = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                .objectNode()
                .put("iss", accessKey)
                .put("exp", now.plus(LIFETIME).getEpochSecond())
                .put("nbf", now.minus(SKEW).getEpochSecond())
                .toString();
        String unsigned = HEADER + "." + URL.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secretKey.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return unsigned + "." + URL.encodeToString(mac.doFinal(unsigned.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            // HmacSHA256 is in every JDK; the message never carries the key.
            throw new IllegalStateException(
                    "cannot sign a Kling token: " + e.getClass().getSimpleName());
        }
    }
}
