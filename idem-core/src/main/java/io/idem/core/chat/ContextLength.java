package io.idem.core.chat;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A vendor's refusal of a prompt as longer than the model's context window, whatever words the
 * vendor uses for it: OpenAI's code {@code context_length_exceeded}, or a message such as "maximum
 * context length is 8192 tokens" or "input exceeds the context window". Adapters name such a refusal
 * {@link #CODE}, so that it fails over as {@link Trigger#CONTEXT_LENGTH}. Pure and thread-safe.
 */
public final class ContextLength {
    /** The error code of a prompt too long for the model. */
    public static final String CODE = "context_length_exceeded";

    private static final Pattern WORDS = Pattern.compile(
            "context[ _-]?(length|window|size)|maximum context|too many (input )?tokens|prompt is too long");

    private ContextLength() {}

    /** Whether a vendor's error code or message says the prompt did not fit the model's context. */
    public static boolean refused(String code, String message) {
        if (CODE.equals(code)) {
            return true;
        }
        return message != null
                && WORDS.matcher(message.toLowerCase(Locale.ROOT)).find();
    }
}
