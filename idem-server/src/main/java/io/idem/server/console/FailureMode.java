package io.idem.server.console;

/**
 * The fake vendor's {@code simulate} modes in plain words, as the Generate page offers them for
 * each fake provider. {@link #NORMAL} sends no directive at all.
 */
enum FailureMode {
    NORMAL("none", "Works normally", "answers with the image"),
    HTTP_503("http_503", "HTTP 503", "refuses at once, bills nothing: next provider"),
    RATE_LIMITED("http_429", "Rate limited (429)", "refuses at once, bills nothing: next provider"),
    REFUSED("refuse", "Refused connection", "closes the connection before the request leaves: next provider"),
    MALFORMED("malformed", "Malformed answer", "answers 200 without an image, bills nothing: next provider"),
    INVALID_REQUEST("user_error", "Invalid request", "400 invalid request: the job fails, no fallback"),
    CONTENT_POLICY("policy", "Content policy", "400 content policy: the job fails, never another provider"),
    BAD_CREDENTIALS("auth", "Bad credentials", "401: next provider"),
    TIMEOUT("timeout", "Timeout", "accepts and bills, answers too late: manual review"),
    INTERRUPTED("disconnect", "Connection interrupted", "accepts and bills, then drops the connection: manual review"),
    LOST("lost", "Lost by the vendor", "accepts, then fails internally, bills nothing: manual review"),
    SLOW("slow:2000", "Slow (2 s)", "answers after 2 seconds: fine unless the call timeout is shorter");

    private final String value;
    private final String label;
    private final String effect;

    FailureMode(String value, String label, String effect) {
        this.value = value;
        this.label = label;
        this.effect = effect;
    }

    /** The form value, and (except for {@link #NORMAL}) the {@code simulate} directive. */
    String value() {
        return value;
    }

    String label() {
        return label;
    }

    /** What the fake vendor does, and what becomes of the job. */
    String effect() {
        return effect;
    }

    boolean simulates() {
        return this != NORMAL;
    }

    static FailureMode fromValue(String value) {
        for (FailureMode mode : values()) {
            if (mode.value.equals(value)) {
                return mode;
            }
        }
        throw new ConsoleRefusal(400, "Unknown failure mode '" + value + "'.");
    }
}
