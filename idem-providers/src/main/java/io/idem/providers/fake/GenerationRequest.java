package io.idem.providers.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A validated {@code POST /v1/images/generations} or {@code POST /v1/videos} body.
 *
 * @param reference the caller's own id for the call (Idem's attempt id), or {@code null}
 * @param seconds a video's length; 0 for images
 * @param options the rest of an image body (quality, output format, provider options …), echoed
 *     so tests can see what arrived; {@code size: "auto"} is painted at 1024x1024 and shows here
 */
record GenerationRequest(
        String model, String prompt, String size, int n, String reference, int seconds, ObjectNode options) {

    static final int MAX_N = 10;
    static final int MAX_PROMPT = 32_000;
    static final int MAX_REFERENCE = 200;
    static final int MAX_SECONDS = 120;
    private static final Pattern SIZE = Pattern.compile("([1-9][0-9]{0,3})x([1-9][0-9]{0,3})");

    GenerationRequest {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(prompt, "prompt");
        if (!SIZE.matcher(size).matches()) {
            throw new IllegalArgumentException("size must look like 1024x1024, was " + size);
        }
        if (n < 1 || n > MAX_N) {
            throw new IllegalArgumentException("n must be 1.." + MAX_N + ", was " + n);
        }
        if (seconds < 0 || seconds > MAX_SECONDS) {
            throw new IllegalArgumentException("seconds must be 0.." + MAX_SECONDS + ", was " + seconds);
        }
        Objects.requireNonNull(options, "options");
    }

    /** A request with nothing beyond its core fields. */
    GenerationRequest(String model, String prompt, String size, int n, String reference, int seconds) {
        this(model, prompt, size, n, reference, seconds, VendorBodies.JSON.createObjectNode());
    }

    /** An image request. */
    GenerationRequest(String model, String prompt, String size, int n, String reference) {
        this(model, prompt, size, n, reference, 0);
    }

    boolean video() {
        return seconds > 0;
    }

    static boolean validSize(String size) {
        return SIZE.matcher(size).matches();
    }

    int width() {
        return dimension(1);
    }

    int height() {
        return dimension(2);
    }

    private int dimension(int group) {
        Matcher matcher = SIZE.matcher(size);
        if (!matcher.matches()) {
            throw new IllegalStateException("size was validated: " + size);
        }
        return Integer.parseInt(matcher.group(group));
    }
}
