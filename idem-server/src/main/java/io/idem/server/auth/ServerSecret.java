package io.idem.server.auth;

import io.idem.core.text.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server secret keys every HMAC Idem makes (idempotency digests, asset links). From {@code
 * IDEM_SECRET}, else generated once into the data directory (mode 0600). Nodes sharing a database
 * must share it. Its value is never logged or rendered.
 */
public final class ServerSecret {
    private final byte[] key;

    private ServerSecret(byte[] key) {
        this.key = key;
    }

    public static ServerSecret of(String value) {
        if (value.length() < 16) {
            throw new IllegalArgumentException("IDEM_SECRET must be at least 16 characters");
        }
        return new ServerSecret(value.getBytes(StandardCharsets.UTF_8));
    }

    public static ServerSecret loadOrCreate(Path dataDir) {
        Path file = dataDir.resolve("server.secret");
        try {
            if (Files.exists(file)) {
                return of(Files.readString(file).trim());
            }
            Files.createDirectories(dataDir);
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            String value = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            Files.writeString(file, value);
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: the directory's own permissions protect it
            }
            return of(value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create the server secret in " + dataDir, e);
        }
    }

    /** HMAC-SHA256 under the server secret over the given parts, each length-prefixed. */
    public byte[] hmac(String... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (String part : parts) {
                byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
                mac.update(java.nio.ByteBuffer.allocate(4).putInt(bytes.length).array());
                mac.update(bytes);
            }
            return mac.doFinal();
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** {@code redactor}, also hiding this secret (the one way its value leaves this class). */
    public Redactor addTo(Redactor redactor) {
        return redactor.with(new String(key, StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "ServerSecret[redacted]";
    }
}
