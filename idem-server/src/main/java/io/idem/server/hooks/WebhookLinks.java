package io.idem.server.hooks;

import io.idem.core.spi.CallbackAddress;
import io.idem.server.auth.ServerSecret;
import java.net.URI;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/**
 * Signed callback URLs for vendors: {@code {public_url}/v1/hooks/{provider}?ref={attempt}&sig=…}.
 * The signature binds provider and attempt, so a forged callback cannot point at another attempt.
 */
public final class WebhookLinks implements CallbackAddress {
    private final Optional<URI> publicUrl;
    private final ServerSecret secret;

    public WebhookLinks(Optional<URI> publicUrl, ServerSecret secret) {
        this.publicUrl = publicUrl;
        this.secret = secret;
    }

    @Override
    public Optional<URI> forAttempt(String provider, UUID attemptId) {
        return publicUrl.map(base -> URI.create(base + "/v1/hooks/" + provider + "?ref=" + attemptId + "&sig="
                + signature(provider, attemptId.toString())));
    }

    public boolean verify(String provider, String reference, String signature) {
        if (signature == null || reference == null) {
            return false;
        }
        return MessageDigest.isEqual(signature(provider, reference).getBytes(), signature.getBytes());
    }

    private String signature(String provider, String reference) {
        byte[] mac = secret.hmac("hook", provider, reference);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(mac, 18));
    }
}
