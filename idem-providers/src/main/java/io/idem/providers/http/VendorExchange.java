package io.idem.providers.http;

import io.idem.core.outcome.Outcome;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One HTTP exchange with a vendor: either an answer (any status) or a classified transport failure.
 * Expected failures are values here; only a programming error (an unexpected runtime exception from
 * the client) escapes, for the adapter to report as an {@code AdapterFault}.
 *
 * <p>The JDK's request timeout stops at the response head; a vendor that sends a head and then
 * stalls the body would hang the call forever. So the whole exchange also gets a hard deadline of
 * the request timeout plus {@link #BODY_GRACE}.
 */
public sealed interface VendorExchange {

    /** How long past the request timeout we still wait for the response body. */
    Duration BODY_GRACE = Duration.ofSeconds(2);

    /** The vendor answered. */
    record Answered(HttpResponse<byte[]> response) implements VendorExchange {}

    /** No answer; {@code outcome} is an {@code Unavailable} or an {@code Unconfirmed}. */
    record Failed(Outcome outcome) implements VendorExchange {
        /** The failure in words (never carries headers or credentials). */
        public String detail() {
            return switch (outcome) {
                case Outcome.Unavailable u -> u.code() + ": " + u.message();
                case Outcome.Unconfirmed u -> u.code() + ": " + u.message();
                case Outcome.Confirmed c -> "confirmed";
                case Outcome.Rejected r -> r.code();
                case Outcome.AdapterFault f -> f.message();
            };
        }
    }

    /**
     * Sends a request whose body is {@code tracker}. The request must carry a timeout.
     *
     * @throws RuntimeException only for programming errors; the body may then have been pulled
     *     (ask {@code tracker})
     */
    static VendorExchange send(HttpClient client, HttpRequest request, SendTracker tracker) {
        Duration timeout = request.timeout()
                .orElseThrow(() -> new IllegalArgumentException("a vendor request needs a timeout: " + request));
        CompletableFuture<HttpResponse<byte[]>> future =
                client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
        try {
            return new Answered(future.get(timeout.plus(BODY_GRACE).toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof IOException) {
                return new Failed(TransportFailure.classify(cause, tracker.bodyPulled()));
            }
            throw new IllegalStateException(
                    "HTTP client failed unexpectedly: " + TransportFailure.describe(cause), cause);
        } catch (TimeoutException e) {
            future.cancel(true);
            return new Failed(TransportFailure.classify(e, tracker.bodyPulled()));
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            return new Failed(TransportFailure.interrupted(tracker.bodyPulled()));
        }
    }

    /** Sends a request without a body (a lookup or a probe): failures count as "not sent". */
    static VendorExchange sendWithoutBody(HttpClient client, HttpRequest request) {
        return send(client, request, SendTracker.track(HttpRequest.BodyPublishers.noBody()));
    }
}
