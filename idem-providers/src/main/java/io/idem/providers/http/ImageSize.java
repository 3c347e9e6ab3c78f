package io.idem.providers.http;

import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An image size in pixels, read from Idem's {@code WIDTHxHEIGHT} (2 to 5 digits each). */
public record ImageSize(int width, int height) {
    private static final Pattern SIZE = Pattern.compile("(\\d{2,5})x(\\d{2,5})");

    /** {@code text} as a size; empty if it is null or not {@code WIDTHxHEIGHT}. */
    public static Optional<ImageSize> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = SIZE.matcher(text);
        return m.matches()
                ? Optional.of(new ImageSize(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))))
                : Optional.empty();
    }

    /** A refusal (nothing is sent) if {@code size} is given but not {@code WIDTHxHEIGHT}; none for no size. */
    public static Optional<Outcome> refusal(String size) {
        if (size == null || parse(size).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(new Outcome.Rejected(
                RejectionKind.USER_ERROR, "invalid_size", "size must look like 1024x1024, was " + size, 0, null));
    }
}
