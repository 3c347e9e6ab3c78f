package io.idem.providers.fal;

import io.idem.core.spi.CancelAnswer;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import io.idem.providers.http.VendorText;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * The queue API's follow-up calls on a request fal already accepted: status, result, cancel. None
 * of them can bill, so GETs may be repeated freely. Thread-safe.
 */
final class FalQueue {
    private final VendorCalls calls;
    private final FalEndpoints endpoints;

    FalQueue(VendorCalls calls, FalEndpoints endpoints) {
        this.calls = calls;
        this.endpoints = endpoints;
    }

    /** What a status GET told us. */
    sealed interface StatusRead {
        record Read(FalStatus status) implements StatusRead {}

        /** fal does not know the id (any more). */
        record NotFound() implements StatusRead {}

        record Unreadable(String detail) implements StatusRead {}
    }

    FalEndpoints endpoints() {
        return endpoints;
    }

    /** What makes fal's words safe to keep. */
    VendorText text() {
        return calls.text();
    }

    StatusRead status(String endpointId, String requestId, Optional<String> statusUrl, Duration timeout) {
        URI uri = endpoints.vendorOr(statusUrl, endpoints.status(endpointId, requestId));
        return switch (get(uri, timeout)) {
            case VendorExchange.Failed failed -> new StatusRead.Unreadable("status lookup failed: " + failed.detail());
            case VendorExchange.Answered answered -> {
                HttpResponse<byte[]> response = answered.response();
                if (response.statusCode() == 404) {
                    yield new StatusRead.NotFound();
                }
                yield FalStatus.read(response.body())
                        .filter(s -> response.statusCode() == 200)
                        .<StatusRead>map(StatusRead.Read::new)
                        .orElseGet(() -> new StatusRead.Unreadable("status answered HTTP " + response.statusCode()));
            }
        };
    }

    VendorExchange result(String endpointId, String requestId, Optional<String> responseUrl, Duration timeout) {
        return get(endpoints.vendorOr(responseUrl, endpoints.result(endpointId, requestId)), timeout);
    }

    /**
     * Cancels a request. fal removes a queued request (never billed); for a running one it only
     * signals the runner, which may still bill. So the state just before the cancel decides.
     */
    CancelAnswer cancel(String endpointId, String requestId) {
        StatusRead before = status(endpointId, requestId, Optional.empty(), VendorCalls.LOOKUP_TIMEOUT);
        if (before instanceof StatusRead.Read read && read.status().phase() == FalStatus.Phase.COMPLETED) {
            return new CancelAnswer.TooLate("fal request " + requestId + " already completed");
        }
        return cancelFrom(endpointId, requestId, before);
    }

    /** Cancels a request whose state was just read as {@code before}. */
    CancelAnswer cancelFrom(String endpointId, String requestId, StatusRead before) {
        HttpRequest.Builder request = VendorCalls.lookup(
                        endpoints.cancel(endpointId, requestId), VendorCalls.LOOKUP_TIMEOUT)
                .PUT(HttpRequest.BodyPublishers.noBody());
        return switch (calls.ask(request)) {
            case VendorExchange.Failed failed -> new CancelAnswer.Unclear("cancel failed: " + failed.detail());
            case VendorExchange.Answered answered -> canceled(answered.response(), before, requestId);
        };
    }

    private CancelAnswer canceled(HttpResponse<byte[]> response, StatusRead before, String requestId) {
        String said = VendorJson.parse(response.body())
                .flatMap(root -> VendorJson.text(root, "status"))
                .map(text()::safe)
                .orElse("HTTP " + response.statusCode());
        boolean accepted = response.statusCode() < 300 && (said.equals("OK") || said.equals("CANCELLATION_REQUESTED"));
        if (said.equals("ALREADY_COMPLETED")) {
            return new CancelAnswer.TooLate("fal request " + requestId + " already completed");
        }
        if (!accepted) {
            return new CancelAnswer.Unclear("cancel of fal request " + requestId + " answered " + said);
        }
        if (!(before instanceof StatusRead.Read read)) {
            return new CancelAnswer.Unclear(
                    "cancel of fal request " + requestId + " accepted, but its state before the cancel is unknown");
        }
        return switch (read.status().phase()) {
            case IN_QUEUE -> new CancelAnswer.Canceled("fal removed request " + requestId + " from its queue");
            case IN_PROGRESS ->
                new CancelAnswer.TooLate("fal request " + requestId + " was running; the runner got a cancel signal"
                        + " and may still bill it");
            case COMPLETED -> new CancelAnswer.TooLate("fal request " + requestId + " already completed");
            case OTHER ->
                new CancelAnswer.Unclear("cancel of fal request " + requestId + " accepted in state "
                        + read.status().raw());
        };
    }

    VendorExchange get(URI uri, Duration timeout) {
        return calls.get(uri, timeout);
    }
}
