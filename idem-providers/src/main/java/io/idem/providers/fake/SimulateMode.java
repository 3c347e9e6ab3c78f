package io.idem.providers.fake;

import java.time.Duration;
import java.util.Locale;

/** The fault a caller asks the fake vendor to act out, from the {@code X-Idem-Simulate} header. */
sealed interface SimulateMode
        permits SimulateMode.Fixed, SimulateMode.Slow, SimulateMode.RateLimited, SimulateMode.Unknown {

    /** The longest {@code slow:MS} delay accepted, in milliseconds. */
    long MAX_SLOW_MILLIS = 600_000;

    /** A directive without parameters. */
    enum Fixed implements SimulateMode {
        OK,
        HTTP_503,
        HTTP_429,
        REFUSE,
        MALFORMED,
        USER_ERROR,
        POLICY,
        AUTH,
        TIMEOUT,
        DISCONNECT,
        LOST,
        IGNORE_EXPECT;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code slow:MS}: run for {@code delay}, then answer. */
    record Slow(Duration delay) implements SimulateMode {
        public Slow {
            if (delay.isNegative() || delay.toMillis() > MAX_SLOW_MILLIS) {
                throw new IllegalArgumentException("slow delay must be 0.." + MAX_SLOW_MILLIS + " ms, was " + delay);
            }
        }
    }

    /** The longest {@code rate_limited:S} wait accepted, in seconds (a day: longer than Idem honours). */
    long MAX_RATE_LIMIT_SECONDS = 86_400;

    /** {@code rate_limited:S}: refuse at once with a 429 that says {@code Retry-After: S}; bills nothing. */
    record RateLimited(Duration retryAfter) implements SimulateMode {
        public RateLimited {
            if (retryAfter.isNegative() || retryAfter.toSeconds() > MAX_RATE_LIMIT_SECONDS) {
                throw new IllegalArgumentException(
                        "rate limit must be 0.." + MAX_RATE_LIMIT_SECONDS + " s, was " + retryAfter);
            }
        }
    }

    /** A value the vendor does not understand; answered with a 400. */
    record Unknown(String value) implements SimulateMode {}

    /** Parses a header value; an absent header means {@code ok}. */
    static SimulateMode parse(String value) {
        String trimmed = value.strip();
        for (Fixed fixed : Fixed.values()) {
            if (fixed.wire().equals(trimmed)) {
                return fixed;
            }
        }
        if (trimmed.startsWith("slow:")) {
            String millis = trimmed.substring("slow:".length());
            // At most 6 digits keeps parseLong away from overflow; the range check does the rest.
            if (millis.matches("[0-9]{1,6}") && Long.parseLong(millis) <= MAX_SLOW_MILLIS) {
                return new Slow(Duration.ofMillis(Long.parseLong(millis)));
            }
        }
        if (trimmed.startsWith("rate_limited:")) {
            String seconds = trimmed.substring("rate_limited:".length());
            if (seconds.matches("[0-9]{1,5}") && Long.parseLong(seconds) <= MAX_RATE_LIMIT_SECONDS) {
                return new RateLimited(Duration.ofSeconds(Long.parseLong(seconds)));
            }
        }
        return new Unknown(trimmed);
    }
}
