package io.idem.core.domain;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * An image an edit job starts from ({@code image}) or the mask that says where to edit it
 * ({@code mask}): its type and its bytes, kept as base64 so two equal uploads make equal specs.
 *
 * @param mask whether it is the mask rather than an image to edit
 * @param mimeType {@code image/png}, {@code image/jpeg} or {@code image/webp}
 * @param base64 the bytes
 */
public record InputImage(boolean mask, String mimeType, String base64) {
    public static final List<String> TYPES = List.of("image/png", "image/jpeg", "image/webp");
    /** The most one upload may be. */
    public static final int MAX_BYTES = 4 * 1024 * 1024;
    /** The most images one edit may start from. */
    public static final int MAX_IMAGES = 4;

    public InputImage {
        Objects.requireNonNull(mimeType, "mimeType");
        if (!TYPES.contains(mimeType)) {
            throw new IllegalArgumentException("an input image must be one of " + TYPES + ", was " + mimeType);
        }
        Objects.requireNonNull(base64, "base64");
    }

    /** {@code bytes} as an input, its type read from its first bytes; empty when it is no PNG, JPEG or WebP. */
    public static java.util.Optional<InputImage> of(boolean mask, byte[] bytes) {
        return sniff(bytes)
                .map(type -> new InputImage(mask, type, Base64.getEncoder().encodeToString(bytes)));
    }

    private static java.util.Optional<String> sniff(byte[] b) {
        if (b.length >= 8 && (b[0] & 0xff) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G') {
            return java.util.Optional.of("image/png");
        }
        if (b.length >= 3 && (b[0] & 0xff) == 0xff && (b[1] & 0xff) == 0xd8 && (b[2] & 0xff) == 0xff) {
            return java.util.Optional.of("image/jpeg");
        }
        if (b.length >= 12
                && b[0] == 'R'
                && b[1] == 'I'
                && b[2] == 'F'
                && b[3] == 'F'
                && b[8] == 'W'
                && b[9] == 'E'
                && b[10] == 'B'
                && b[11] == 'P') {
            return java.util.Optional.of("image/webp");
        }
        return java.util.Optional.empty();
    }

    public byte[] bytes() {
        return Base64.getDecoder().decode(base64);
    }

    /** A file name for a multipart upload ({@code image.png}). */
    public String fileName() {
        return (mask ? "mask." : "image.") + mimeType.substring(mimeType.indexOf('/') + 1);
    }

    /** What identifies it in a request hash: its role, type and the SHA-256 of its bytes. */
    public String digest() {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(bytes());
            return (mask ? "mask:" : "image:") + mimeType + ":" + HexFormat.of().formatHex(sha);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256", e);
        }
    }
}
