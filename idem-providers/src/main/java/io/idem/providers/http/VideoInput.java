package io.idem.providers.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.VideoParams;
import io.idem.core.spi.GenerationCall;

/**
 * A video call's model input in the flat names hosted video models most share (fal's endpoints,
 * Replicate's models): {@code prompt}, {@code duration} (whole seconds), {@code aspect_ratio},
 * {@code resolution}, and when asked for {@code fps}, {@code seed}, {@code negative_prompt}, the
 * first and last frame under the vendor's own names, and {@code generate_audio}.
 */
public final class VideoInput {
    private VideoInput() {}

    /**
     * @param startImage the field the first frame goes in (image-to-video)
     * @param endImage the field the last frame goes in
     */
    public static ObjectNode of(GenerationCall call, String startImage, String endImage) {
        VideoParams video = call.video().orElse(VideoParams.DEFAULTS);
        ObjectNode input = VendorJson.MAPPER
                .createObjectNode()
                .put("prompt", call.prompt())
                .put("duration", video.durationSeconds())
                .put("aspect_ratio", video.aspectRatio())
                .put("resolution", video.resolution());
        video.fps().ifPresent(fps -> input.put("fps", fps));
        video.seed().ifPresent(seed -> input.put("seed", seed));
        video.negativePrompt().ifPresent(text -> input.put("negative_prompt", text));
        video.startImage().ifPresent(url -> input.put(startImage, url));
        video.endImage().ifPresent(url -> input.put(endImage, url));
        if (video.audio()) {
            input.put("generate_audio", true);
        }
        return input;
    }
}
