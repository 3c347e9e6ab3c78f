package io.idem.providers.runware;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.VideoParams;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.VendorJson;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One async {@code videoInference} task under our own UUID (runware.ai/docs, video inference and
 * task polling): {@code positivePrompt}, {@code model}, {@code duration}, {@code width} and {@code
 * height} (the resolution at the aspect ratio), and when asked for {@code fps}, {@code seed}, {@code
 * negativePrompt}, and {@code frameImages} (the first frame makes it image-to-video, the last
 * frame ends it). The clip comes back as a URL ({@code outputType: URL}, MP4), fetched at once;
 * {@code includeCost} asks Runware to state its price. A generated soundtrack is a per-model
 * provider setting Runware has no common field for: the vendor declares {@code audio: false}.
 */
final class RunwareVideoTask {
    private RunwareVideoTask() {}

    static byte[] of(String taskUuid, String model, GenerationCall call) {
        VideoParams video = call.video().orElse(VideoParams.DEFAULTS);
        String[] size = video.size().split("x");
        ObjectNode task = VendorJson.MAPPER
                .createObjectNode()
                .put("taskType", "videoInference")
                .put("taskUUID", taskUuid)
                .put("positivePrompt", call.prompt())
                .put("model", model)
                .put("duration", video.durationSeconds())
                .put("width", Integer.parseInt(size[0]))
                .put("height", Integer.parseInt(size[1]))
                .put("numberResults", 1)
                .put("outputType", "URL")
                .put("outputFormat", "MP4")
                .put("deliveryMethod", "async")
                .put("includeCost", true);
        video.fps().ifPresent(fps -> task.put("fps", fps));
        video.seed().ifPresent(seed -> task.put("seed", seed));
        video.negativePrompt().ifPresent(text -> task.put("negativePrompt", text));
        frames(task, video.startImage(), video.endImage());
        call.callback().ifPresent(url -> task.put("webhookURL", url.toString()));
        ArrayNode tasks = VendorJson.MAPPER.createArrayNode().add(task);
        return tasks.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void frames(ObjectNode task, Optional<String> first, Optional<String> last) {
        if (first.isEmpty()) {
            return;
        }
        ArrayNode frames = task.putArray("frameImages");
        frames.addObject().put("inputImage", first.get()).put("frame", "first");
        last.ifPresent(url -> frames.addObject().put("inputImage", url).put("frame", "last"));
    }
}
