package io.idem.providers.fal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.Credential;
import io.idem.providers.http.RetryAfter;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import io.idem.providers.http.VendorText;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The one billable call: {@code POST {queue}/{endpoint}}. It is never retried. It asks for {@code
 * 100 Continue} and tracks its body, so a connection lost before fal asked for the body is {@code
 * Unavailable} and one lost after is {@code Unconfirmed}. {@code X-Fal-Request-Timeout} makes fal
 * drop the request if it has not started within the call's timeout: a submit whose answer we lost
 * cannot start billing later. Thread-safe.
 */
final class FalSubmission {
    static final String START_TIMEOUT_HEADER = "X-Fal-Request-Timeout";

    private final VendorCalls calls;
    private final FalEndpoints endpoints;

    FalSubmission(VendorCalls calls, FalEndpoints endpoints) {
        this.calls = calls;
        this.endpoints = endpoints;
    }

    /** What the submit came to: accepted (poll it), or an outcome already. */
    sealed interface Answer {
        record Accepted(FalPolling.Accepted request) implements Answer {}

        record Settled(Outcome outcome) implements Answer {}
    }

    Answer submit(
            GenerationCall call, String endpointId, ObjectNode input, Credential credential, SendTracker tracker) {
        long startSeconds = Math.max(1, call.timeout().toSeconds());
        HttpRequest.Builder request = VendorCalls.billablePost(
                        endpoints.submit(endpointId, call.callback()), call.timeout(), tracker)
                .header(START_TIMEOUT_HEADER, Long.toString(startSeconds));
        return switch (calls.send(request, credential, tracker)) {
            case VendorExchange.Failed failed -> new Answer.Settled(failed.outcome());
            case VendorExchange.Answered answered -> read(answered.response(), endpointId, calls.text(credential));
        };
    }

    static byte[] body(ObjectNode input) {
        return input.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static Answer read(HttpResponse<byte[]> response, String endpointId, VendorText text) {
        int status = response.statusCode();
        if (status < 200 || status > 299) {
            return new Answer.Settled(RetryAfter.onto(
                    FalErrors.submitRefused(status, response.body(), response.headers(), text), response));
        }
        Optional<JsonNode> root = VendorJson.parse(response.body());
        Optional<String> id = root.flatMap(r -> VendorJson.text(r, "request_id"));
        if (id.isEmpty() || !FalEndpoints.validRequestId(id.get())) {
            // Queued or not, we cannot tell without an id: reconcile looks for it in fal's history.
            return new Answer.Settled(new Outcome.Unconfirmed(
                    "malformed_submit",
                    "fal accepted the submit (HTTP " + status + ") without a usable request id",
                    status,
                    null));
        }
        return new Answer.Accepted(
                new FalPolling.Accepted(endpointId, id.get(), root.flatMap(r -> VendorJson.text(r, "status_url"))));
    }
}
