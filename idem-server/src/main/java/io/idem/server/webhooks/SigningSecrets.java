package io.idem.server.webhooks;

import io.idem.core.webhook.Delivery;
import io.idem.server.auth.ServerSecret;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secrets that sign event webhooks. A subscription's secret is {@code whsec_} and the base64 of
 * 32 random bytes, shown once and stored sealed: AES-256-GCM under a key derived from the server
 * secret, bound to the subscription's id, so the database alone never yields it. A job callback is
 * signed with the secret derived for the API key that submitted the job (HMAC of the server secret
 * over the key's id), which that key can read at any time. Thread-safe.
 */
public final class SigningSecrets {
    static final String PREFIX = "whsec_";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final ServerSecret secret;
    private final SecretKeySpec sealing;
    private final SecureRandom random = new SecureRandom();

    public SigningSecrets(ServerSecret secret) {
        this.secret = secret;
        this.sealing = new SecretKeySpec(secret.hmac("webhook secret sealing"), "AES");
    }

    /** A fresh subscription secret. */
    String generate() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return PREFIX + Base64.getEncoder().encodeToString(bytes);
    }

    /** {@code value} sealed for the subscription {@code id}: the IV, then the ciphertext and its tag. */
    byte[] seal(UUID id, String value) {
        byte[] iv = new byte[IV_BYTES];
        random.nextBytes(iv);
        byte[] sealed = crypt(Cipher.ENCRYPT_MODE, id, iv, value.getBytes(StandardCharsets.UTF_8));
        return ByteBuffer.allocate(IV_BYTES + sealed.length).put(iv).put(sealed).array();
    }

    /** The secret sealed for subscription {@code id}; throws when it was sealed under another server secret. */
    String open(UUID id, byte[] sealed) {
        byte[] iv = Arrays.copyOf(sealed, IV_BYTES);
        byte[] plain = crypt(Cipher.DECRYPT_MODE, id, iv, Arrays.copyOfRange(sealed, IV_BYTES, sealed.length));
        return new String(plain, StandardCharsets.UTF_8);
    }

    /** The secret that signs the callbacks of jobs submitted with API key {@code apiKeyId}. */
    public String forKey(UUID apiKeyId) {
        return PREFIX + Base64.getEncoder().encodeToString(secret.hmac("job callback signing", apiKeyId.toString()));
    }

    /** The secret a delivery is signed with. */
    String of(Delivery.Signer signer) {
        return switch (signer) {
            case Delivery.Signer.Subscription s -> open(s.subscriptionId(), s.sealedSecret());
            case Delivery.Signer.JobCallback c -> forKey(c.apiKeyId());
        };
    }

    private byte[] crypt(int mode, UUID id, byte[] iv, byte[] input) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, sealing, new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(id.toString().getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(input);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(
                    "the webhook secret could not be " + (mode == Cipher.ENCRYPT_MODE ? "sealed" : "opened"), e);
        }
    }
}
