package io.idem.providers.fal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.JobKind;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.VideoInput;
import java.util.Optional;

/**
 * The model input a fal video endpoint receives, in the names fal's video endpoints share:
 * {@code prompt}, {@code duration} (whole seconds), {@code aspect_ratio}, {@code resolution}, and
 * when asked for {@code fps}, {@code seed}, {@code negative_prompt}, {@code image_url} (the first
 * frame: an image-to-video endpoint), {@code end_image_url} and {@code generate_audio}. Each fal
 * endpoint has its own schema: an endpoint that ignores one of these ignores it, so a provider
 * declares per model what its endpoints really make (capabilities {@code video}).
 */
final class FalVideoInput {
    private FalVideoInput() {}

    /** Why the video call cannot go to fal at all (nothing is sent), if it cannot. */
    static Optional<Outcome> refusal(String endpointId) {
        return FalInput.invalidEndpoint(endpointId);
    }

    static boolean applies(GenerationCall call) {
        return call.kind() == JobKind.VIDEO;
    }

    static ObjectNode of(GenerationCall call) {
        return VideoInput.of(call, "image_url", "end_image_url");
    }
}
