package io.idem.providers.http;

import io.idem.core.outcome.Outcome;
import io.idem.providers.http.wire.Http1Client;
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

    /**
     * The largest body sent on the caller's own thread: one that always fits the socket's buffers,
     * so its write cannot block on a vendor that stopped reading (sockets have no write timeout).
     */
    long DIRECT_BODY_LIMIT = 64 * 1024;

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
        long length = request.bodyPublisher()
                .map(HttpRequest.BodyPublisher::contentLength)
                .orElse(0L);
        if (client instanceof Http1Client direct && length >= 0 && length <= DIRECT_BODY_LIMIT) {
            return sendOn(direct, request, tracker);
        }
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

    /**
     * The same exchange on the caller's own thread: {@link Http1Client} bounds the head by the
     * request timeout and a byte-array body by {@link #BODY_GRACE} more, as the future above does.
     */
    private static VendorExchange sendOn(Http1Client client, HttpRequest request, SendTracker tracker) {
        try {
            return new Answered(client.send(request, HttpResponse.BodyHandlers.ofByteArray()));
        } catch (IOException e) {
            return new Failed(TransportFailure.classify(e, tracker.bodyPulled()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Failed(TransportFailure.interrupted(tracker.bodyPulled()));
        }
    }

    /** Sends a request without a body (a lookup or a probe): failures count as "not sent". */
    static VendorExchange sendWithoutBody(HttpClient client, HttpRequest request) {
        return send(client, request, SendTracker.track(HttpRequest.BodyPublishers.noBody()));
    }
}
