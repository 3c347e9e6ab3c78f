package io.idem.providers.kling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.VideoParams;
import io.idem.providers.http.VendorJson;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Kling's task wire format: the submit body built from a video request, and the task a submit or a
 * query answers with ({@code data.task_id}, {@code task_status} {@code submitted|processing|
 * succeed|failed}, {@code task_result.videos[0].url} and {@code duration}, {@code
 * final_unit_deduction}).
 *
 * @param id Kling's {@code task_id}
 * @param status {@code task_status}, or {@code (none)}
 * @param message {@code task_status_msg}, vendor words (to be made safe before keeping)
 * @param video the first clip's URL, once it succeeded
 * @param seconds the clip's length as Kling states it
 * @param units the units Kling deducted for it, when it says
 */
record KlingTask(
        String id,
        String status,
        String message,
        Optional<URI> video,
        Optional<BigDecimal> seconds,
        Optional<BigDecimal> units) {

    /** The endpoint family of a request: {@code text2video}, or {@code image2video} from a first frame. */
    static String action(VideoParams video) {
        return video.imageToVideo() ? "image2video" : "text2video";
    }

    /** The submit body; {@code reference} is our attempt reference, sent as {@code external_task_id}. */
    static byte[] body(String model, String prompt, VideoParams video, String reference, Optional<URI> callback) {
        ObjectNode body = VendorJson.MAPPER
                .createObjectNode()
                .put("model_name", model)
                .put("prompt", prompt)
                .put("mode", "1080p".equals(video.resolution()) ? "pro" : "std")
                .put("duration", Integer.toString(video.durationSeconds()))
                .put("external_task_id", reference);
        if (video.imageToVideo()) {
            // image2video takes its frame's shape from the image: no aspect_ratio field.
            body.put("image", video.startImage().get());
            video.endImage().ifPresent(url -> body.put("image_tail", url));
        } else {
            body.put("aspect_ratio", video.aspectRatio());
        }
        video.negativePrompt().ifPresent(text -> body.put("negative_prompt", text));
        body.put("sound", video.audio() ? "on" : "off");
        callback.ifPresent(url -> body.put("callback_url", url.toString()));
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The task in an answer {@code {"code":0,"data":{…}}}; empty if there is none. */
    static Optional<KlingTask> parse(byte[] body) {
        return VendorJson.parse(body)
                .filter(root -> root.path("code").asInt(-1) == 0)
                .map(root -> root.path("data"))
                .flatMap(data -> VendorJson.text(data, "task_id").map(id -> of(id, data)));
    }

    private static KlingTask of(String id, JsonNode data) {
        JsonNode first = data.path("task_result").path("videos").path(0);
        return new KlingTask(
                id,
                VendorJson.text(data, "task_status").orElse("(none)"),
                VendorJson.text(data, "task_status_msg").orElse(""),
                VendorJson.text(first, "url").flatMap(VendorJson::uri),
                number(first.path("duration")),
                number(data.path("final_unit_deduction")));
    }

    private static Optional<BigDecimal> number(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return Optional.empty();
        }
        try {
            BigDecimal value = new BigDecimal(node.asText().strip());
            return value.signum() >= 0 ? Optional.of(value) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    boolean running() {
        return "submitted".equals(status) || "processing".equals(status);
    }
}
