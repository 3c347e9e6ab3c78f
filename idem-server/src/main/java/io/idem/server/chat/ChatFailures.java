package io.idem.server.chat;

import io.idem.core.breaker.BreakerSnapshot;
import io.idem.core.breaker.CircuitBreakers;
import io.idem.core.chat.AttemptResult;
import io.idem.core.chat.Chain;
import io.idem.core.chat.ChainResult;
import io.idem.core.chat.ChatAttempt;
import io.idem.server.http.ApiError;
import io.idem.server.http.RetryAdvice;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A chain that ended without an answer, as an error the OpenAI SDK understands: {@code error.type},
 * {@code error.code} ({@code all_models_failed} or the vendor's rejection code), and the attempts
 * made (a single model's one attempt too).
 *
 * <p>What it tells the SDK's retries: once any model was called, {@code x-should-retry: false} (a
 * retry would call the models again, and may pay twice where an answer's billing is unknown); a 429
 * still says in {@code Retry-After} when the vendors expect calls again. A chain that called
 * nothing because every model's breaker is open is a {@code 503} that a retry may well pass, after
 * the shortest remaining cooldown. Thread-safe.
 */
final class ChatFailures {
    /** What a vendor 429 is taken to mean when the vendor named no wait of its own. */
    private static final Duration VENDOR_RATE_LIMIT = Duration.ofSeconds(1);

    private final CircuitBreakers breakers;
    private final InstantSource clock;

    ChatFailures(CircuitBreakers breakers, InstantSource clock) {
        this.breakers = breakers;
        this.clock = clock;
    }

    ApiError error(Context ctx, Chain chain, ChainResult.Failed failed) {
        var failure = failed.failure();
        List<ChatAttempt> attempts = failed.attempts();
        boolean called = attempts.stream().anyMatch(ChatFailures::sent);
        int status = called || attempts.isEmpty() ? failure.status() : 503;
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("type", type(status));
        extra.put("attempts", ChatReport.attempts(attempts));
        extra.put("idem", ChatReport.body(chain, Optional.empty(), attempts, Optional.empty(), Optional.empty()));
        if (!attempts.isEmpty() && chain.multiModel()) {
            ctx.header("Idem-Attempts", ChatReport.header(attempts, Optional.empty()));
        }
        RetryAdvice advice =
                failure.code().equals("budget_exceeded") ? untilTheDayTurns() : advice(status, called, attempts);
        return new ApiError(status, failure.code(), failure.message(), extra, advice);
    }

    /**
     * The key's budget had no room for the call's hold: nothing changes before the next UTC day (a
     * monthly budget's refusal says the same, and says it again then).
     */
    private RetryAdvice untilTheDayTurns() {
        Instant now = clock.instant();
        Instant midnight = now.atZone(java.time.ZoneOffset.UTC)
                .toLocalDate()
                .plusDays(1)
                .atStartOfDay(java.time.ZoneOffset.UTC)
                .toInstant();
        return RetryAdvice.after(Duration.between(now, midnight));
    }

    /** Whether the attempt's request went out to the vendor (a skipped model was never called). */
    static boolean sent(ChatAttempt attempt) {
        return !attempt.result().outcome().equals(AttemptResult.SKIPPED);
    }

    private RetryAdvice advice(int status, boolean called, List<ChatAttempt> attempts) {
        if (called) {
            return status == 429 ? RetryAdvice.neverBefore(vendorsWait(attempts)) : RetryAdvice.NEVER;
        }
        Instant now = clock.instant();
        Optional<Duration> soonest = attempts.stream()
                .map(a -> cooldownLeft(breakers.snapshot(a.model().provider()), now))
                .flatMap(Optional::stream)
                .min(Duration::compareTo);
        return soonest.map(RetryAdvice::after).orElse(RetryAdvice.NEVER);
    }

    /**
     * The soonest any rate-limited model of the chain said it takes calls again: each one's own
     * {@code Retry-After}, else a second.
     */
    private static Duration vendorsWait(List<ChatAttempt> attempts) {
        return attempts.stream()
                .filter(a -> a.result().httpStatus() == 429)
                .map(a -> a.result().retryAfter().orElse(VENDOR_RATE_LIMIT))
                .min(Duration::compareTo)
                .orElse(VENDOR_RATE_LIMIT);
    }

    /** How long an open or probing breaker keeps its provider closed; empty when it is not the reason. */
    private static Optional<Duration> cooldownLeft(BreakerSnapshot snapshot, Instant now) {
        Optional<Instant> until = switch (snapshot.state()) {
            case OPEN -> snapshot.openUntil();
            case HALF_OPEN -> snapshot.probeUntil();
            case CLOSED -> Optional.empty();
        };
        return until.map(u -> Duration.between(now, u)).map(d -> d.isNegative() ? Duration.ZERO : d);
    }

    private static String type(int status) {
        if (status == 429) {
            return "rate_limit_error";
        }
        return status < 500 ? "invalid_request_error" : "server_error";
    }
}
