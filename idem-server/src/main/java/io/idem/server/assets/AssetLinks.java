package io.idem.server.assets;

import io.idem.server.auth.ServerSecret;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.UUID;

/**
 * Signed asset links: {@code /v1/assets/{id}?sig=…} is fetchable without a key (like a vendor's
 * signed URL), so OpenAI-style clients and {@code <img>} tags can load results.
 */
public final class AssetLinks {
    private final ServerSecret secret;

    public AssetLinks(ServerSecret secret) {
        this.secret = secret;
    }

    public String path(UUID assetId) {
        return "/v1/assets/" + assetId + "?sig=" + signature(assetId);
    }

    public boolean verify(UUID assetId, String signature) {
        if (signature == null) {
            return false;
        }
        return MessageDigest.isEqual(signature(assetId).getBytes(), signature.getBytes());
    }

    private String signature(UUID assetId) {
        byte[] mac = secret.hmac("asset", assetId.toString());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(mac, 16));
    }
}
