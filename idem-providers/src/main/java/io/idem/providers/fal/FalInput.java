package io.idem.providers.fal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.ImageParams;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.ImageOptions;
import io.idem.providers.http.ImageSize;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorJson;
import java.util.Optional;
import java.util.Set;

/**
 * The model input fal receives: {@code prompt}, {@code image_size} as {@code {width, height}} (the
 * form fal's image endpoints share) and {@code num_images} when more than one is asked for. Only
 * fields fal's image endpoints commonly accept are sent, with {@code output_format} when asked
 * for and the request's {@code provider_options} (never over a field set here).
 */
final class FalInput {
    /** The image parameters fal's image endpoints take: {@code output_format}, and provider options as they are. */
    static final Set<String> PARAMETERS = Set.of(ImageParams.OUTPUT_FORMAT, ImageParams.PROVIDER_OPTIONS);

    private FalInput() {}

    /** Why the call cannot go to fal at all (nothing is sent), if it cannot. */
    static Optional<Outcome> refusal(GenerationCall call, String endpointId) {
        return invalidEndpoint(endpointId)
                .or(() -> VendorCalls.unsupportedKind(call, "the fal adapter"))
                .or(() -> ImageSize.refusal(call.size()));
    }

    /** A refusal of an endpoint id that cannot go into fal's paths, if it cannot (images and video). */
    static Optional<Outcome> invalidEndpoint(String endpointId) {
        if (FalEndpoints.validEndpoint(endpointId)) {
            return Optional.empty();
        }
        return Optional.of(new Outcome.Rejected(
                RejectionKind.CONFIG,
                "invalid_model",
                "fal endpoint ids look like 'owner/app[/path]', was '" + endpointId + "'",
                0,
                null));
    }

    static ObjectNode of(GenerationCall call) {
        ObjectNode input = VendorJson.MAPPER.createObjectNode().put("prompt", call.prompt());
        ImageSize.parse(call.size())
                .ifPresent(size ->
                        input.putObject("image_size").put("width", size.width()).put("height", size.height()));
        if (call.n() > 1) {
            input.put("num_images", call.n());
        }
        call.image().outputFormat().ifPresent(format -> input.put(ImageParams.OUTPUT_FORMAT, format));
        ImageOptions.passThrough(input, call.image());
        return input;
    }
}
