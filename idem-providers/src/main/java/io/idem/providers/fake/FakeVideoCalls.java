package io.idem.providers.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.VideoParams;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.pricing.PricingModel;
import io.idem.core.pricing.Usage;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.Credential;
import io.idem.providers.http.JobPoller;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * A video call to the fake vendor: submit ({@code POST /v1/videos}, never retried), report the id at
 * once, poll {@code GET /v1/videos/{id}} until it ends or the call's time is up, then fetch the clip.
 * A clip still rendering at the deadline is {@code Unconfirmed} with its id, for reconcile to
 * collect. Thread-safe.
 */
final class FakeVideoCalls {
    private final VendorCalls calls;
    private final FakeEndpoints endpoints;
    private final InstantSource clock;
    private final JobPoller poller;

    FakeVideoCalls(VendorCalls calls, FakeEndpoints endpoints, InstantSource clock, PollSchedule schedule) {
        this.calls = calls;
        this.endpoints = endpoints;
        this.clock = clock;
        this.poller = new JobPoller(clock, schedule);
    }

    Outcome generate(GenerationCall call, Credential credential) {
        SendTracker tracker = SendTracker.track(body(call));
        return calls.generating(call, tracker, () -> {
            Instant deadline = clock.instant().plus(call.timeout());
            HttpRequest.Builder request = VendorCalls.billablePost(endpoints.videos(), call.timeout(), tracker);
            call.simulate().ifPresent(mode -> request.header(GenerationIntake.SIMULATE_HEADER, mode));
            return switch (calls.send(request, credential, tracker)) {
                case VendorExchange.Failed failed -> failed.outcome();
                case VendorExchange.Answered answered
                when answered.response().statusCode() != 200 ->
                    io.idem.providers.http.RetryAfter.onto(
                            FakeAnswerReader.read(
                                    answered.response(), calls.settings().pricing(), calls.text(credential)),
                            answered.response());
                case VendorExchange.Answered answered ->
                    accepted(call, answered.response().body(), deadline);
            };
        });
    }

    private Outcome accepted(GenerationCall call, byte[] body, Instant deadline) {
        Optional<String> id = VendorJson.parse(body).flatMap(root -> VendorJson.text(root, "id"));
        if (id.isEmpty()) {
            return new Outcome.Unavailable("malformed_response", "200 without a video id", 200, null);
        }
        call.listener().submitted(id.get());
        return await(id.get(), deadline);
    }

    private Outcome await(String id, Instant deadline) {
        return poller.await(id, deadline, "reconcile finds it by its id", left -> {
            VendorExchange read = calls.get(endpoints.generation(id), left);
            if (read instanceof VendorExchange.Answered answered
                    && answered.response().statusCode() == 200) {
                Optional<JsonNode> root = VendorJson.parse(answered.response().body());
                String status = root.flatMap(r -> VendorJson.text(r, "status")).orElse("(none)");
                return JobPoller.of(root.flatMap(r -> ended(id, status, r)), status);
            }
            return JobPoller.unread(read);
        });
    }

    /** The call's outcome once the vendor says the video ended; empty while it renders. */
    private Optional<Outcome> ended(String id, String status, JsonNode view) {
        return switch (status) {
            case "succeeded" ->
                Optional.of(delivered(id, view)
                        .map(result -> (Outcome) new Outcome.Confirmed(result, 200, id, cost(view)))
                        .orElseGet(() -> new Outcome.Unconfirmed(
                                "content_unreadable",
                                "video " + id + " succeeded but its file could not be read",
                                200,
                                id)));
            case "failed", "canceled" ->
                Optional.of(new Outcome.Unavailable(
                        "video_" + status, "the vendor reports video " + id + " " + status + ", not billed", 200, id));
            case "rejected_policy" ->
                Optional.of(new Outcome.Rejected(
                        RejectionKind.POLICY,
                        "content_policy_violation",
                        "video " + id + " refused by policy",
                        200,
                        id));
            case "rejected_input" ->
                Optional.of(new Outcome.Rejected(
                        RejectionKind.USER_ERROR,
                        "invalid_request",
                        "video " + id + " refused as invalid input",
                        200,
                        id));
            default -> Optional.empty();
        };
    }

    /** The finished clip, fetched from the vendor. */
    Optional<GenerationResult> delivered(String id, JsonNode view) {
        VendorExchange content = calls.get(endpoints.videoContent(id), VendorCalls.LOOKUP_TIMEOUT);
        if (content instanceof VendorExchange.Answered answered
                && answered.response().statusCode() == 200
                && answered.response().body().length > 0
                && answered.response()
                        .headers()
                        .firstValue("Content-Type")
                        .orElse("")
                        .startsWith(Mp4Clip.MIME_TYPE)) {
            return Optional.of(new GenerationResult(
                    List.of(new GenerationResult.Media(answered.response().body(), Mp4Clip.MIME_TYPE))));
        }
        return Optional.empty();
    }

    /** The vendor's stated cost, else the seconds it reports at the configured price. */
    BigDecimal cost(JsonNode view) {
        PricingModel pricing = calls.settings().pricing();
        return FakeGenerationJson.cost(view)
                .orElseGet(() -> pricing.cost(Usage.outputSeconds(
                        BigDecimal.valueOf(view.path("seconds").asInt(0)))));
    }

    private byte[] body(GenerationCall call) {
        VideoParams video = call.video().orElse(VideoParams.DEFAULTS);
        ObjectNode body = VendorJson.MAPPER
                .createObjectNode()
                .put("model", calls.modelOf(call))
                .put("prompt", call.prompt())
                .put("seconds", video.durationSeconds())
                .put("size", video.size())
                .put("aspect_ratio", video.aspectRatio())
                .put("audio", video.audio())
                .put("reference", call.reference());
        video.fps().ifPresent(fps -> body.put("fps", fps));
        video.seed().ifPresent(seed -> body.put("seed", seed));
        video.negativePrompt().ifPresent(text -> body.put("negative_prompt", text));
        video.startImage().ifPresent(url -> body.put("start_image", url));
        video.endImage().ifPresent(url -> body.put("end_image", url));
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }
}
