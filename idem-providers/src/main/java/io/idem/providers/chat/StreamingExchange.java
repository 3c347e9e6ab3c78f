package io.idem.providers.chat;

import io.idem.core.chat.ChatEvent;
import io.idem.core.outcome.Outcome;
import io.idem.providers.http.RetryAfter;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.TransportFailure;
import io.idem.providers.http.VendorExchange;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one streaming vendor call on a virtual thread and feeds what it says into a {@link
 * QueuedChatStream}: a transport failure is classified by the {@link SendTracker} (not sent:
 * {@code Unavailable}; sent: {@code Unconfirmed}); a non-200 by the adapter's error reader; a 200
 * body by the adapter's body reader. A body that ends before its reader saw the stream's end is
 * {@code Unconfirmed} ({@code connection_lost}): the answer was sent but never completed.
 */
final class StreamingExchange {
    private static final Logger log = LoggerFactory.getLogger(StreamingExchange.class);
    private static final int MAX_ERROR_BODY = 64 * 1024;

    /** Reads a 200 body into events; must emit the terminal event when it sees the stream's end. */
    @FunctionalInterface
    interface BodyReader {
        void read(InputStream body, QueuedChatStream out, String requestId) throws IOException;
    }

    /** Classifies a non-200 answer. */
    @FunctionalInterface
    interface ErrorReader {
        Outcome classify(int status, byte[] body, String requestId);
    }

    private StreamingExchange() {}

    static QueuedChatStream start(
            HttpClient client,
            HttpRequest request,
            SendTracker tracker,
            String requestIdHeader,
            BodyReader reader,
            ErrorReader errors) {
        QueuedChatStream stream = new QueuedChatStream(tracker::bodyPulled);
        long waitMillis = request.timeout()
                .orElseThrow(() -> new IllegalArgumentException("a vendor request needs a timeout"))
                .plus(VendorExchange.BODY_GRACE)
                .toMillis();
        CompletableFuture<HttpResponse<InputStream>> future =
                client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
        stream.onClose(() -> future.cancel(true));
        Thread.ofVirtual().name("idem-chat-stream").start(() -> {
            HttpResponse<InputStream> response = await(future, waitMillis, tracker, stream);
            if (response == null) {
                return;
            }
            InputStream body = response.body();
            stream.onClose(body::close);
            String requestId = response.headers().firstValue(requestIdHeader).orElse(null);
            try (body) {
                if (response.statusCode() != 200) {
                    Outcome refusal =
                            errors.classify(response.statusCode(), body.readNBytes(MAX_ERROR_BODY), requestId);
                    stream.emit(new ChatEvent.Failed(RetryAfter.onto(refusal, response)));
                    return;
                }
                reader.read(body, stream, requestId);
                stream.emit(new ChatEvent.Failed(new Outcome.Unconfirmed(
                        "connection_lost", "the stream ended before the vendor finished it", 200, requestId)));
            } catch (IOException e) {
                stream.emit(new ChatEvent.Failed(new Outcome.Unconfirmed(
                        "connection_lost",
                        "the stream broke after the vendor started answering: "
                                + e.getClass().getSimpleName(),
                        200,
                        requestId)));
            } catch (RuntimeException e) {
                log.warn("chat stream reader failed", e);
                stream.emit(new ChatEvent.Failed(new Outcome.AdapterFault(
                        "chat stream reader failed: " + e.getClass().getSimpleName(), true)));
            }
        });
        return stream;
    }

    private static HttpResponse<InputStream> await(
            CompletableFuture<HttpResponse<InputStream>> future,
            long waitMillis,
            SendTracker tracker,
            QueuedChatStream stream) {
        try {
            return future.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof IOException) {
                stream.emit(new ChatEvent.Failed(TransportFailure.classify(cause, tracker.bodyPulled())));
            } else if (!(cause instanceof CancellationException)) {
                log.warn("HTTP client failed unexpectedly on a chat stream", cause);
                stream.emit(new ChatEvent.Failed(new Outcome.AdapterFault(
                        "HTTP client failed: " + cause.getClass().getSimpleName(), tracker.bodyPulled())));
            }
        } catch (TimeoutException e) {
            future.cancel(true);
            stream.emit(new ChatEvent.Failed(TransportFailure.classify(e, tracker.bodyPulled())));
        } catch (CancellationException e) {
            // closed by the caller: nobody is listening any more
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }
}
