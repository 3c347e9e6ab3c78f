package io.idem.providers.fake;

import java.time.Duration;
import java.util.Locale;

/**
 * The fault a caller asks the fake vendor's chat side to act out ({@code X-Idem-Simulate}, DESIGN
 * §5 and §7): the job modes that make sense for a synchronous call, plus {@code stream_cut:N},
 * {@code first_token_delay:MS}, {@code stall:MS}, {@code drip:MS}, {@code http_500} and {@code
 * context_length} (OpenAI's 400 for a prompt longer than the model's context window).
 */
sealed interface ChatMode {
    long MAX_MILLIS = 600_000;
    int MAX_CUT = 100_000;

    /** A directive without parameters. */
    enum Fixed implements ChatMode {
        OK,
        HTTP_503,
        HTTP_500,
        HTTP_429,
        CONTEXT_LENGTH,
        REFUSE,
        MALFORMED,
        USER_ERROR,
        POLICY,
        AUTH,
        TIMEOUT,
        DISCONNECT,
        NO_DONE,
        NO_USAGE;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code stream_cut:N}: N content tokens, then the connection ends without the stream's end. */
    record StreamCut(int tokens) implements ChatMode {}

    /** {@code first_token_delay:MS}: the answer starts at once, its first content token after MS. */
    record FirstTokenDelay(Duration delay) implements ChatMode {}

    /** {@code slow:MS}: nothing at all for MS, then the whole answer. */
    record Slow(Duration delay) implements ChatMode {}

    /** {@code stall:MS}: the first content token at once, then MS of silence, then the rest. */
    record Stall(Duration pause) implements ChatMode {}

    /** {@code drip:MS}: a steady stream, MS before every content token after the first. */
    record Drip(Duration interval) implements ChatMode {}

    /** {@code rate_limited:S}: a 429 at once that says {@code Retry-After: S}. */
    record RateLimited(Duration retryAfter) implements ChatMode {}

    /** {@code tool_call:NAME}: the answer is one call of the tool NAME, with the last user message as its argument. */
    record ToolCall(String name) implements ChatMode {}

    /** A value the vendor does not understand; answered with a 400. */
    record Unknown(String value) implements ChatMode {}

    static ChatMode parse(String value) {
        String trimmed = value.strip();
        for (Fixed fixed : Fixed.values()) {
            if (fixed.wire().equals(trimmed)) {
                return fixed;
            }
        }
        long cut = parameter(trimmed, "stream_cut:", MAX_CUT);
        if (cut >= 0) {
            return new StreamCut((int) cut);
        }
        long delay = parameter(trimmed, "first_token_delay:", MAX_MILLIS);
        if (delay >= 0) {
            return new FirstTokenDelay(Duration.ofMillis(delay));
        }
        long slow = parameter(trimmed, "slow:", MAX_MILLIS);
        if (slow >= 0) {
            return new Slow(Duration.ofMillis(slow));
        }
        long stall = parameter(trimmed, "stall:", MAX_MILLIS);
        if (stall >= 0) {
            return new Stall(Duration.ofMillis(stall));
        }
        long drip = parameter(trimmed, "drip:", MAX_MILLIS);
        if (drip >= 0) {
            return new Drip(Duration.ofMillis(drip));
        }
        long wait = parameter(trimmed, "rate_limited:", SimulateMode.MAX_RATE_LIMIT_SECONDS);
        if (wait >= 0) {
            return new RateLimited(Duration.ofSeconds(wait));
        }
        if (trimmed.matches("tool_call:[A-Za-z0-9_-]{1,64}")) {
            return new ToolCall(trimmed.substring("tool_call:".length()));
        }
        return new Unknown(trimmed);
    }

    /** The number after {@code prefix}, or -1 when the value is not {@code prefix} + 0..max. */
    private static long parameter(String value, String prefix, long max) {
        if (!value.startsWith(prefix)) {
            return -1;
        }
        String number = value.substring(prefix.length());
        // At most 6 digits keeps parseLong away from overflow; the range check does the rest.
        if (!number.matches("[0-9]{1,6}")) {
            return -1;
        }
        long parsed = Long.parseLong(number);
        return parsed <= max ? parsed : -1;
    }
}
