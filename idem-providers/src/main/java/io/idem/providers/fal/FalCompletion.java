package io.idem.providers.fal;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.Outcome;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Reads the result of a request fal reports {@code COMPLETED}: the output (then the files) on
 * success, the error body on failure. The result GET is repeated a few times when it fails in
 * transit: the request is finished, only our read of it failed. Thread-safe.
 */
final class FalCompletion {
    static final int RESULT_TRIES = 3;

    private final FalQueue queue;
    private final FalDelivery delivery;
    private final FalVideoDelivery videos;
    private final PollSchedule schedule;

    FalCompletion(FalQueue queue, FalDelivery delivery, FalVideoDelivery videos, PollSchedule schedule) {
        this.queue = queue;
        this.delivery = delivery;
        this.videos = videos;
        this.schedule = schedule;
    }

    /** A history entry comes without the result's headers (so without fal's billable units). */
    private static final HttpHeaders NO_HEADERS = HttpHeaders.of(java.util.Map.of(), (a, b) -> true);

    /**
     * A successful output found in fal's history: delivered as {@link #deliver} does, a clip priced
     * by the {@code duration} its listed input asked for (the history shows no billable units).
     */
    Outcome deliverListed(JsonNode output, JsonNode input, String requestId) {
        JsonNode asked = input.path("duration");
        if (FalVideoDelivery.isVideo(output) && asked.canConvertToInt() && asked.asInt() > 0) {
            videos.expect(requestId, asked.asInt());
        }
        return deliver(output, NO_HEADERS, requestId);
    }

    /** A successful output in hand: a clip (streamed to disk), else images. */
    Outcome deliver(JsonNode output, HttpHeaders headers, String requestId) {
        return FalVideoDelivery.isVideo(output)
                ? videos.deliver(output, headers, requestId)
                : delivery.deliver(output, requestId);
    }

    Outcome finish(String endpointId, String requestId, FalStatus completed) {
        String why = "no answer";
        Duration pause = schedule.first();
        for (int attempt = 1; attempt <= RESULT_TRIES; attempt++) {
            VendorExchange exchange =
                    queue.result(endpointId, requestId, completed.responseUrl(), VendorCalls.LOOKUP_TIMEOUT);
            if (exchange instanceof VendorExchange.Answered answered) {
                Optional<Outcome> outcome = read(answered.response(), requestId, completed);
                if (outcome.isPresent()) {
                    return outcome.get();
                }
                why = "HTTP " + answered.response().statusCode();
            } else if (exchange instanceof VendorExchange.Failed failed) {
                why = failed.detail();
            }
            if (attempt < RESULT_TRIES && !PollSchedule.sleep(pause)) {
                break;
            }
            pause = schedule.after(pause);
        }
        return new Outcome.Unconfirmed(
                "result_fetch_failed",
                "fal request " + requestId + " completed but its result could not be read: " + why,
                0,
                requestId);
    }

    /** The outcome the result answer settles, or empty when it is worth asking again. */
    private Optional<Outcome> read(HttpResponse<byte[]> response, String requestId, FalStatus completed) {
        int status = response.statusCode();
        if (status == 200) {
            Optional<JsonNode> output = VendorJson.parse(response.body());
            return Optional.of(output.map(o -> deliver(o, response.headers(), requestId))
                    .orElseGet(() -> new Outcome.Unconfirmed(
                            "malformed_result",
                            "fal request " + requestId + " completed with an unreadable result",
                            200,
                            requestId)));
        }
        boolean requestError = status == 400 || status == 422 || (completed.failed() && status >= 500);
        if (requestError) {
            return Optional.of(
                    FalErrors.requestFailed(status, response.body(), response.headers(), requestId, queue.text()));
        }
        return Optional.empty();
    }
}
