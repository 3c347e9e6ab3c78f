package io.idem.providers.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * Names the image type of inline bytes from their first bytes, for vendors that return base64
 * without saying what it encodes. Stateless and thread-safe.
 */
public final class ImageBytes {
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};
    private static final byte[] JPEG = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF};
    private static final byte[] GIF = "GIF8".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RIFF = "RIFF".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] WEBP = "WEBP".getBytes(StandardCharsets.US_ASCII);

    private ImageBytes() {}

    /** The MIME type the bytes announce, if they are a PNG, JPEG, WebP or GIF. */
    public static Optional<String> sniff(byte[] bytes) {
        if (startsWith(bytes, 0, PNG)) {
            return Optional.of("image/png");
        }
        if (startsWith(bytes, 0, JPEG)) {
            return Optional.of("image/jpeg");
        }
        if (startsWith(bytes, 0, RIFF) && startsWith(bytes, 8, WEBP)) {
            return Optional.of("image/webp");
        }
        if (startsWith(bytes, 0, GIF)) {
            return Optional.of("image/gif");
        }
        return Optional.empty();
    }

    private static boolean startsWith(byte[] bytes, int offset, byte[] prefix) {
        return bytes.length >= offset + prefix.length
                && Arrays.equals(bytes, offset, offset + prefix.length, prefix, 0, prefix.length);
    }
}
