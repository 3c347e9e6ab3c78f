package io.idem.server.http;

import io.javalin.http.Context;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What an answer tells a client's automatic retries, as the headers the OpenAI SDKs obey: {@code
 * x-should-retry: false} when a retry could start a second paid generation or cannot help; {@code
 * x-should-retry: true} with {@code retry-after-ms} and {@code Retry-After} (whole seconds, rounded
 * up) when a retry is safe and worth it after that wait. The one place these headers are decided;
 * every error Idem renders carries one ({@link #NEVER} unless said otherwise). Immutable.
 *
 * @param retry whether an SDK should retry by itself
 * @param after how long to wait first; on a "never" advice, when the client may ask again by hand
 */
public record RetryAdvice(boolean retry, Optional<Duration> after) {
    /**
     * The longest wait an SDK is asked to sit out by itself: the OpenAI Python SDK ignores server
     * delays over 60 s, and a longer wait is for a person or a scheduler to decide.
     */
    public static final Duration LONGEST_SDK_WAIT = Duration.ofSeconds(60);

    /** Do not retry: a retry could pay twice, or would meet the same answer. */
    public static final RetryAdvice NEVER = new RetryAdvice(false, Optional.empty());

    public RetryAdvice {
        Objects.requireNonNull(after, "after");
        if (after.isPresent() && after.get().isNegative()) {
            throw new IllegalArgumentException("a retry wait must not be negative, was " + after.get());
        }
        if (retry && after.isEmpty()) {
            throw new IllegalArgumentException("a retry advice needs its wait");
        }
    }

    /**
     * Retry after {@code wait} (at least 1 ms); a wait over {@link #LONGEST_SDK_WAIT} is told as
     * {@code Retry-After} with {@code x-should-retry: false}.
     */
    public static RetryAdvice after(Duration wait) {
        Duration atLeast = wait.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : wait;
        return new RetryAdvice(atLeast.compareTo(LONGEST_SDK_WAIT) <= 0, Optional.of(atLeast));
    }

    /** Do not retry automatically; {@code Retry-After} says when asking again by hand makes sense. */
    public static RetryAdvice neverBefore(Duration wait) {
        return new RetryAdvice(false, Optional.of(wait.isNegative() ? Duration.ZERO : wait));
    }

    /** Sets {@code x-should-retry}, and with a wait {@code retry-after-ms} and {@code Retry-After}. */
    public void apply(Context ctx) {
        ctx.header("x-should-retry", Boolean.toString(retry));
        after.ifPresent(wait -> {
            if (retry) {
                ctx.header("retry-after-ms", Long.toString(Math.max(1, wait.toMillis())));
            }
            long seconds = wait.toSeconds() + (wait.toNanosPart() > 0 ? 1 : 0);
            ctx.header("Retry-After", Long.toString(Math.max(1, seconds)));
        });
    }
}
