package io.idem.providers.http;

import io.idem.core.outcome.Outcome;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * When a vendor that answered {@code 429} asked to be called again: {@code retry-after-ms}
 * (milliseconds, as OpenAI sends), else {@code Retry-After} in seconds or as an HTTP date. A date is
 * counted from the answer's own {@code Date} header, so neither clock's skew matters; without one a
 * date says nothing. Anything unreadable or negative says nothing. Idem caps what it honours (see
 * {@code CircuitBreakers.MAX_RATE_LIMIT}). Thread-safe.
 */
public final class RetryAfter {
    private RetryAfter() {}

    /** The 429 {@code Unavailable} of {@code response} with the vendor's wait on it; any other outcome as it is. */
    public static Outcome onto(Outcome outcome, HttpResponse<?> response) {
        if (outcome instanceof Outcome.Unavailable u && u.httpStatus() == 429) {
            return u.withRetryAfter(of(response.headers()));
        }
        return outcome;
    }

    /** What the headers say about when to come back. */
    public static Optional<Duration> of(HttpHeaders headers) {
        Optional<Duration> millis =
                headers.firstValue("retry-after-ms").flatMap(v -> number(v).map(Duration::ofMillis));
        if (millis.isPresent()) {
            return millis;
        }
        Optional<String> value = headers.firstValue("retry-after");
        if (value.isEmpty()) {
            return Optional.empty();
        }
        Optional<Duration> seconds = number(value.get()).map(Duration::ofSeconds);
        if (seconds.isPresent()) {
            return seconds;
        }
        Optional<ZonedDateTime> at = date(value.get());
        Optional<ZonedDateTime> sent = headers.firstValue("date").flatMap(RetryAfter::date);
        if (at.isEmpty() || sent.isEmpty()) {
            return Optional.empty();
        }
        Duration wait = Duration.between(sent.get(), at.get());
        return wait.isNegative() ? Optional.empty() : Optional.of(wait);
    }

    private static Optional<Long> number(String value) {
        String trimmed = value.strip();
        // at most 12 digits: no overflow, and anything longer is absurd anyway (capped later)
        if (!trimmed.matches("[0-9]{1,12}")) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(trimmed));
    }

    private static Optional<ZonedDateTime> date(String value) {
        try {
            return Optional.of(ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
