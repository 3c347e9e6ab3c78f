package io.idem.core.chat;

import java.time.Duration;

/**
 * The accepted ranges of the chain settings (issue 7) and the defaults used when nothing sets a
 * value. Out-of-range values are refused naming the field, never clamped.
 */
public final class ChainLimits {
    /** At most one primary and two fallbacks. */
    public static final int MAX_MODELS = 3;

    public static final Duration MIN_TIMEOUT = Duration.ofMillis(1_000);
    public static final Duration MAX_TIMEOUT = Duration.ofMillis(300_000);
    public static final Duration MIN_FIRST_TOKEN = Duration.ofMillis(500);
    public static final Duration MAX_FIRST_TOKEN = Duration.ofMillis(60_000);
    public static final Duration MIN_STREAM_IDLE = Duration.ofMillis(500);
    public static final Duration MAX_STREAM_IDLE = Duration.ofMillis(300_000);
    public static final int MAX_RETRIES = 5;
    public static final Duration MIN_DEADLINE = Duration.ofMillis(1_000);
    public static final Duration MAX_DEADLINE = Duration.ofMillis(600_000);

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /**
     * Short enough to fail over from a silent provider well before a client gives up (people leave
     * a blank answer after some ten seconds, SDKs and proxies after 30 to 60), long enough for a
     * loaded vendor's usual first token.
     */
    public static final Duration DEFAULT_FIRST_TOKEN = Duration.ofSeconds(12);
    /** A stream silent this long after its first token is cut: a live vendor sends tokens or keep-alives. */
    public static final Duration DEFAULT_STREAM_IDLE = Duration.ofSeconds(30);
    /**
     * One more try of the chain's last model after an unbilled 429 or 5xx: with nothing to fail over
     * to, a second try is the only chance of an answer.
     */
    public static final int DEFAULT_RETRIES = 1;
    /**
     * No second try of a model that has a fallback behind it: the fallback answers as soon as a
     * retry would (a 5xx names no wait) or sooner (a 429 waits), and is not the upstream that just
     * failed. Gateways' usual fallback (Portkey, OpenRouter) does the same; {@code retries} set on
     * the entry, the chain or the key asks for retries anyway.
     */
    public static final int DEFAULT_RETRIES_BEFORE_FALLBACK = 0;
    /**
     * The longest wait before a retry; a vendor that asks for more (its {@code Retry-After}) is failed
     * over at once, since it keeps the provider closed that long anyway and another model is faster.
     */
    public static final Duration MAX_RETRY_WAIT = Duration.ofSeconds(5);
    /** The whole chain's default deadline, raised to the longest attempt timeout when that is longer. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(120);

    private ChainLimits() {}

    public static Duration timeout(long millis, String field) {
        return within(millis, MIN_TIMEOUT, MAX_TIMEOUT, field);
    }

    public static Duration firstToken(long millis, String field) {
        return within(millis, MIN_FIRST_TOKEN, MAX_FIRST_TOKEN, field);
    }

    public static Duration streamIdle(long millis, String field) {
        return within(millis, MIN_STREAM_IDLE, MAX_STREAM_IDLE, field);
    }

    public static int retries(long count, String field) {
        if (count < 0 || count > MAX_RETRIES) {
            throw new InvalidChainException(
                    field, "invalid_retries", field + " must be 0.." + MAX_RETRIES + ", was " + count);
        }
        return (int) count;
    }

    public static Duration deadline(long millis, String field) {
        return within(millis, MIN_DEADLINE, MAX_DEADLINE, field);
    }

    private static Duration within(long millis, Duration min, Duration max, String field) {
        if (millis < min.toMillis() || millis > max.toMillis()) {
            throw new InvalidChainException(
                    field,
                    "invalid_" + leaf(field),
                    field + " must be " + min.toMillis() + ".." + max.toMillis() + " ms, was " + millis);
        }
        return Duration.ofMillis(millis);
    }

    private static String leaf(String field) {
        String name = field.substring(field.lastIndexOf('.') + 1);
        int bracket = name.indexOf('[');
        return bracket < 0 ? name : name.substring(0, bracket);
    }
}
