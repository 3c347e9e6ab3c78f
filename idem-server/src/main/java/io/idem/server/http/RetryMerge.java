package io.idem.server.http;

import io.javalin.http.Context;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which requests without an {@code Idempotency-Key} are merged with an earlier identical one from
 * the same API key. The OpenAI SDKs send no key, but every attempt says {@code
 * x-stainless-retry-count} (0 first, then 1, 2, …) and its timeout ({@code
 * x-stainless-read-timeout} from Python, {@code x-stainless-timeout} from Node, in seconds).
 *
 * <ul>
 *   <li>A first attempt (count 0) is tracked but never merged: it is a new logical call.
 *   <li>A retry (count n ≥ 1) is merged with the latest identical request no older than {@code n ×
 *       (timeout + 10 s)} (the 10 s cover the SDK's own backoff between attempts), or {@code n ×
 *       defaultWindow} when no timeout is announced, and never older than {@code maxWindow}.
 *   <li>A key with a {@code dedupe_window} merges any keyless identical request within it (or
 *       within the retry's window, whichever is longer), whatever its headers.
 *   <li>Anything else is not tracked at all.
 * </ul>
 *
 * Immutable and thread-safe.
 */
public final class RetryMerge {
    public static final String RETRY_COUNT = "x-stainless-retry-count";
    public static final String READ_TIMEOUT = "x-stainless-read-timeout";
    public static final String TIMEOUT = "x-stainless-timeout";
    /** The SDKs' backoff between attempts is at most 8 s (with jitter below that). */
    static final Duration BACKOFF = Duration.ofSeconds(10);

    private static final Pattern COUNT = Pattern.compile("[0-9]{1,3}");
    private static final Pattern SECONDS = Pattern.compile("[0-9]{1,7}(\\.[0-9]{1,9})?");

    private final Duration defaultWindow;
    private final Duration maxWindow;

    /**
     * @param defaultWindow one attempt's span when a retry announces no timeout
     * @param maxWindow the longest an SDK retry may come after the request it repeats
     */
    public RetryMerge(Duration defaultWindow, Duration maxWindow) {
        this.defaultWindow = Objects.requireNonNull(defaultWindow, "defaultWindow");
        this.maxWindow = Objects.requireNonNull(maxWindow, "maxWindow");
        if (defaultWindow.compareTo(maxWindow) > 0) {
            throw new IllegalArgumentException(
                    "the default window " + defaultWindow + " is longer than the maximum " + maxWindow);
        }
    }

    /**
     * A tracked keyless request: it is recorded under its implicit key and kept for {@code keep};
     * it takes over an earlier identical request's record unless that one is younger than {@code
     * window} (none: never, this is a new call).
     */
    public record Tracking(Optional<Duration> window, Duration keep) {
        public Tracking {
            Objects.requireNonNull(window, "window");
            Objects.requireNonNull(keep, "keep");
        }

        /** Whether this request may be merged with an earlier one at all. */
        public boolean merges() {
            return window.isPresent();
        }
    }

    /** How a request is tracked; empty when it is not. A malformed retry header is a 400. */
    public Optional<Tracking> track(Context ctx, Caller caller) {
        Optional<Integer> count = count(ctx.header(RETRY_COUNT));
        Optional<Duration> announced =
                seconds(READ_TIMEOUT, ctx.header(READ_TIMEOUT)).or(() -> seconds(TIMEOUT, ctx.header(TIMEOUT)));
        Optional<Duration> optIn = caller.key().dedupeWindow();
        if (count.isEmpty() && optIn.isEmpty()) {
            return Optional.empty();
        }
        Duration keep = optIn.filter(w -> w.compareTo(maxWindow) > 0).orElse(maxWindow);
        Optional<Duration> retry = count.filter(n -> n > 0).map(n -> retryWindow(n, announced));
        Optional<Duration> window =
                optIn.isPresent() ? Optional.of(longer(optIn.get(), retry.orElse(Duration.ZERO))) : retry;
        return Optional.of(new Tracking(window, keep));
    }

    private Duration retryWindow(int count, Optional<Duration> announced) {
        Duration span = announced.map(t -> t.plus(BACKOFF)).orElse(defaultWindow);
        Duration window = span.multipliedBy(count);
        return window.compareTo(maxWindow) > 0 ? maxWindow : window;
    }

    private static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static Optional<Integer> count(String value) {
        if (value == null) {
            return Optional.empty();
        }
        if (!COUNT.matcher(value.strip()).matches()) {
            throw ApiError.badRequest("invalid_retry_header", RETRY_COUNT + " must be a whole number 0..999");
        }
        return Optional.of(Integer.parseInt(value.strip()));
    }

    private static Optional<Duration> seconds(String header, String value) {
        if (value == null) {
            return Optional.empty();
        }
        if (!SECONDS.matcher(value.strip()).matches()) {
            throw ApiError.badRequest("invalid_retry_header", header + " must be a number of seconds");
        }
        BigDecimal nanos = new BigDecimal(value.strip()).movePointRight(9);
        return Optional.of(Duration.ofNanos(nanos.longValue()));
    }
}
