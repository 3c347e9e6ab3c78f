package io.idem.providers.fake;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Paints the fake vendor's image: a gradient whose colours come from a SHA-256 of the prompt, with
 * the prompt written across it. The same prompt, size and index always give the same bytes, so tests
 * and the demo can compare results across providers and replays.
 */
final class SvgPainter {
    static final String MIME_TYPE = "image/svg+xml";
    private static final int MAX_TEXT = 120;

    private SvgPainter() {}

    static byte[] paint(String prompt, String size, int index) {
        byte[] hash = sha256(prompt + '\u0000' + size + '\u0000' + index);
        HexFormat hex = HexFormat.of();
        String from = hex.formatHex(hash, 0, 3);
        String to = hex.formatHex(hash, 3, 6);
        int angle = (hash[6] & 0xff) * 360 / 256;
        String[] dimensions = size.split("x");
        int width = Integer.parseInt(dimensions[0]);
        int height = Integer.parseInt(dimensions[1]);
        int fontSize = Math.max(8, Math.min(width, height) / 24);
        String svg = String.format(
                Locale.ROOT, """
                <svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">\
                <defs><linearGradient id="g" gradientTransform="rotate(%d .5 .5)">\
                <stop offset="0" stop-color="#%s"/><stop offset="1" stop-color="#%s"/></linearGradient></defs>\
                <rect width="100%%" height="100%%" fill="url(#g)"/>\
                <text x="50%%" y="50%%" text-anchor="middle" dominant-baseline="middle" \
                font-family="sans-serif" font-size="%d" fill="#ffffff">%s</text></svg>
                """, width, height, width, height, angle, from, to, fontSize, escape(prompt));
        return svg.getBytes(StandardCharsets.UTF_8);
    }

    /** XML-escapes the prompt and drops what XML 1.0 cannot carry at all (controls, lone surrogates). */
    static String escape(String text) {
        StringBuilder out = new StringBuilder();
        int[] codePoints = text.codePoints().limit(MAX_TEXT).toArray();
        for (int cp : codePoints) {
            switch (cp) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> {
                    if (allowedInXml(cp)) {
                        out.appendCodePoint(cp);
                    }
                }
            }
        }
        return out.toString();
    }

    private static boolean allowedInXml(int cp) {
        return cp == '\t'
                || cp == '\n'
                || cp == '\r'
                || (cp >= 0x20 && cp <= 0xD7FF)
                || (cp >= 0xE000 && cp <= 0xFFFD)
                || (cp >= 0x10000 && cp <= 0x10FFFF);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK ships SHA-256", e);
        }
    }
}
