package io.idem.providers.replicate;

import io.idem.core.spi.CancelAnswer;
import io.idem.providers.http.RetryAfter;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Replicate's calls on a prediction that exists: get and cancel. Neither can bill; gets may be
 * repeated freely, the cancel POST is sent once. Thread-safe.
 */
final class ReplicateApi {
    private final VendorCalls calls;
    private final ReplicateEndpoints endpoints;

    ReplicateApi(VendorCalls calls, ReplicateEndpoints endpoints) {
        this.calls = calls;
        this.endpoints = endpoints;
    }

    /** What a prediction GET told us. */
    sealed interface Read {
        record Found(Prediction prediction) implements Read {}

        record NotFound() implements Read {}

        /** @param retryAfter how long Replicate asked us to wait (a 429's {@code Retry-After}) */
        record Unreadable(String detail, Optional<Duration> retryAfter) implements Read {
            Unreadable(String detail) {
                this(detail, Optional.empty());
            }
        }
    }

    ReplicateEndpoints endpoints() {
        return endpoints;
    }

    Read prediction(String id, Optional<String> getUrl, Duration timeout) {
        URI uri = endpoints.vendor(getUrl).orElseGet(() -> endpoints.prediction(id));
        return switch (get(uri, timeout)) {
            case VendorExchange.Failed failed -> new Read.Unreadable("prediction lookup failed: " + failed.detail());
            case VendorExchange.Answered answered -> read(answered.response());
        };
    }

    CancelAnswer cancel(String id) {
        HttpRequest.Builder request = VendorCalls.lookup(endpoints.cancel(id), VendorCalls.LOOKUP_TIMEOUT)
                .POST(HttpRequest.BodyPublishers.noBody());
        return switch (calls.ask(request)) {
            case VendorExchange.Failed failed -> new CancelAnswer.Unclear("cancel failed: " + failed.detail());
            case VendorExchange.Answered answered ->
                switch (read(answered.response())) {
                    case Read.Found found -> canceled(found.prediction());
                    case Read.NotFound notFound -> new CancelAnswer.Unclear("Replicate does not know prediction " + id);
                    case Read.Unreadable unreadable ->
                        new CancelAnswer.Unclear("cancel of " + id + ": " + unreadable.detail());
                };
        };
    }

    /**
     * What the prediction says after the cancel. Only one that never started is canceled for free;
     * a run canceled midway is billed for its run time.
     */
    private static CancelAnswer canceled(Prediction p) {
        return switch (p.status()) {
            case CANCELED, ABORTED ->
                p.started()
                        ? new CancelAnswer.TooLate(
                                "prediction " + p.id() + " was canceled while running; billed for its run time")
                        : new CancelAnswer.Canceled(
                                "prediction " + p.id() + " " + p.rawStatus() + " before it started");
            case SUCCEEDED, FAILED -> new CancelAnswer.TooLate("prediction " + p.id() + " already " + p.rawStatus());
            case STARTING, PROCESSING, OTHER ->
                new CancelAnswer.Unclear("cancel of prediction " + p.id() + " sent; it still reports " + p.rawStatus());
        };
    }

    VendorExchange get(URI uri, Duration timeout) {
        return calls.get(uri, timeout);
    }

    private static Read read(HttpResponse<byte[]> response) {
        if (response.statusCode() == 404) {
            return new Read.NotFound();
        }
        return VendorJson.parse(response.body())
                .filter(root -> response.statusCode() == 200)
                .flatMap(Prediction::read)
                .<Read>map(Read.Found::new)
                .orElseGet(() -> new Read.Unreadable(
                        "answered HTTP " + response.statusCode(), RetryAfter.of(response.headers())));
    }
}
