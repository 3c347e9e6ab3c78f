package io.idem.providers.http;

import java.util.regex.Pattern;

/**
 * Makes a vendor's free text safe to keep on an attempt or in a log: short, and without anything
 * that could be a credential. Vendors echo keys back (OpenAI's 401 quotes a masked key: "Incorrect
 * API key provided: sk-proj-***…abcd"), so the text is scrubbed before any outcome carries it.
 * Stateless and thread-safe.
 */
public final class VendorText {
    /** The longest vendor message kept, in characters. */
    public static final int MAX_MESSAGE = 300;

    private static final String REDACTED = "[redacted]";
    // Key-shaped tokens (sk-…, rk-…, pk-…, masked or not) and bearer tokens, whatever key they hold.
    private static final Pattern KEY_SHAPED = Pattern.compile("\\b(?:sk|rk|pk)-[A-Za-z0-9_*.\\-]{3,}");
    private static final Pattern BEARER = Pattern.compile("(?i)bearer\\s+[^\\s\"',;]+");

    private VendorText() {}

    /** {@code text} scrubbed of {@code credential}'s secret and of anything key-shaped, then clipped. */
    public static String safe(String text, Credential credential) {
        return clip(redact(text, credential));
    }

    /** {@code text} scrubbed of {@code credential}'s secret and of anything key-shaped. */
    public static String redact(String text, Credential credential) {
        if (text == null) {
            return null;
        }
        String scrubbed = text;
        if (credential instanceof Credential.Bearer bearer && !bearer.secret().isEmpty()) {
            scrubbed = scrubbed.replace(bearer.secret(), REDACTED);
        }
        scrubbed = BEARER.matcher(scrubbed).replaceAll("Bearer " + REDACTED);
        return KEY_SHAPED.matcher(scrubbed).replaceAll(REDACTED);
    }

    /** At most {@link #MAX_MESSAGE} characters of {@code text}. */
    public static String clip(String text) {
        if (text == null) {
            return null;
        }
        return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE) + "…";
    }
}
