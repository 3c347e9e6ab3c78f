package io.idem.providers.http;

import io.idem.core.text.Redactor;
import java.util.Objects;

/**
 * Makes a vendor's free text safe to keep on an outcome: passed through the node's {@link
 * Redactor}, which also hides the key the call was made with, then clipped. Vendors echo keys back
 * (OpenAI's 401 quotes a masked key; others quote the whole {@code Authorization} header), so every
 * word a vendor says goes through {@link #safe} before an outcome carries it. Redaction comes first:
 * clipping first could cut a secret in two and keep its first half. Immutable and thread-safe.
 */
public final class VendorText {
    /** The longest vendor message kept, in characters. */
    public static final int MAX_MESSAGE = 300;

    private final Redactor redactor;

    private VendorText(Redactor redactor) {
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    /** For a call made with {@code credential}: hides what {@code redactor} hides and that key. */
    public static VendorText of(Redactor redactor, Credential credential) {
        return new VendorText(
                credential instanceof Credential.Bearer bearer ? redactor.with(bearer.secret()) : redactor);
    }

    /** This, hiding {@code credential} too (a vendor whose calls use two secrets). */
    public VendorText hiding(Credential credential) {
        return of(redactor, credential);
    }

    /** {@code text} without any secret or credential shape, at most {@link #MAX_MESSAGE} characters. */
    public String safe(String text) {
        String scrubbed = redactor.redact(text);
        if (scrubbed == null || scrubbed.length() <= MAX_MESSAGE) {
            return scrubbed;
        }
        return scrubbed.substring(0, MAX_MESSAGE) + "…";
    }
}
