package io.idem.providers.replicate;

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
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;

/**
 * The one billable call: create a prediction. It is never retried. It asks for {@code 100
 * Continue} and tracks its body, so a connection lost before Replicate asked for the body is {@code
 * Unavailable} and one lost after is {@code Unconfirmed}.
 *
 * <p>{@code Prefer: wait=N} lets a fast model answer in the same exchange, with {@code N} below the
 * call's timeout (and at most Replicate's 60 s). {@code Cancel-After} set to the call's timeout
 * ends a prediction that has not started by then as {@code aborted} (not billed), and one still
 * running as {@code canceled}: no image prediction outlives its call. A video's {@code
 * Cancel-After} is what is left of the job's deadline instead ({@link ReplicateVideo}). Thread-safe.
 */
final class ReplicateCreation {
    static final long MAX_WAIT_SECONDS = 60;

    private final VendorCalls calls;
    private final ReplicateEndpoints endpoints;
    private final InstantSource clock;

    ReplicateCreation(VendorCalls calls, ReplicateEndpoints endpoints, InstantSource clock) {
        this.calls = calls;
        this.endpoints = endpoints;
        this.clock = clock;
    }

    /** What the create came to: a prediction (maybe already finished), or an outcome already. */
    sealed interface Answer {
        record Created(Prediction prediction) implements Answer {}

        record Settled(Outcome outcome) implements Answer {}
    }

    Answer create(GenerationCall call, ReplicateModel model, Credential credential, SendTracker tracker) {
        HttpRequest.Builder request = VendorCalls.billablePost(endpoints.create(model), call.timeout(), tracker)
                .header("Prefer", "wait=" + waitSeconds(call.timeout()))
                .header("Cancel-After", cancelAfter(ReplicateVideo.serverDeadline(call, clock.instant())));
        return switch (calls.send(request, credential, tracker)) {
            case VendorExchange.Failed failed -> new Answer.Settled(failed.outcome());
            case VendorExchange.Answered answered -> read(answered.response(), calls.text(credential));
        };
    }

    /** The create body: our input, the model's version where it needs one, and the callback. */
    static byte[] body(ReplicateModel model, ObjectNode input, GenerationCall call) {
        ObjectNode body = VendorJson.MAPPER.createObjectNode();
        model.addVersionTo(body);
        body.set("input", input);
        call.callback().ifPresent(url -> {
            body.put("webhook", url.toString());
            body.putArray("webhook_events_filter").add("completed");
        });
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Held below the call's timeout so the answer (finished or not) arrives before we give up. */
    static long waitSeconds(Duration timeout) {
        return Math.max(1, Math.min(MAX_WAIT_SECONDS, timeout.toSeconds() - 1));
    }

    static String cancelAfter(Duration timeout) {
        return Math.max(1, timeout.toSeconds()) + "s";
    }

    private static Answer read(HttpResponse<byte[]> response, VendorText text) {
        int status = response.statusCode();
        if (status < 200 || status > 299) {
            return new Answer.Settled(RetryAfter.onto(ReplicateErrors.createRefused(response, text), response));
        }
        Optional<Prediction> prediction = VendorJson.parse(response.body())
                .flatMap(Prediction::read)
                .filter(p -> ReplicateEndpoints.validPredictionId(p.id()));
        if (prediction.isEmpty()) {
            // Created or not, we cannot tell without an id: reconcile looks for it in the listing.
            return new Answer.Settled(new Outcome.Unconfirmed(
                    "malformed_create",
                    "Replicate accepted the create (HTTP " + status + ") without a readable prediction",
                    status,
                    null));
        }
        return new Answer.Created(prediction.get());
    }
}
