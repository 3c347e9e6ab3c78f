package io.idem.providers.replicate;

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
 * The model input a prediction receives: {@code prompt}, {@code width}/{@code height} for a size,
 * and {@code num_outputs} when more than one image is asked for. Every Replicate model has its own
 * schema; these are the names most image models share (FLUX models size by {@code aspect_ratio}
 * and answer at their default size). Nothing of ours (no reference) goes into the input: a model
 * may pass unknown inputs to its code, and fail. {@code output_format} ({@code jpg} for JPEG),
 * {@code output_quality} and the request's {@code provider_options} go when asked for.
 */
final class ReplicateInput {
    /** The image parameters Replicate's image models take (format, its quality) and provider options as they are. */
    static final Set<String> PARAMETERS =
            Set.of(ImageParams.OUTPUT_FORMAT, ImageParams.OUTPUT_COMPRESSION, ImageParams.PROVIDER_OPTIONS);

    private ReplicateInput() {}

    /** Why the call cannot go to Replicate at all (nothing is sent), if it cannot. */
    static Optional<Outcome> refusal(GenerationCall call, String vendorModel) {
        return invalidModel(vendorModel)
                .or(() -> VendorCalls.unsupportedKind(call, "the Replicate adapter"))
                .or(() -> ImageSize.refusal(call.size()));
    }

    /** A refusal of a model id Replicate's paths cannot take, if it cannot (images and video). */
    static Optional<Outcome> invalidModel(String vendorModel) {
        if (ReplicateModel.parse(vendorModel).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(new Outcome.Rejected(
                RejectionKind.CONFIG,
                "invalid_model",
                "Replicate models look like 'owner/name', 'owner/name:<version>' or 'deployments/owner/name', was '"
                        + vendorModel + "'",
                0,
                null));
    }

    static ObjectNode of(GenerationCall call) {
        ObjectNode input = VendorJson.MAPPER.createObjectNode().put("prompt", call.prompt());
        ImageSize.parse(call.size())
                .ifPresent(size -> input.put("width", size.width()).put("height", size.height()));
        if (call.n() > 1) {
            input.put("num_outputs", call.n());
        }
        // Replicate's image models name JPEG "jpg" and compression "output_quality"
        call.image()
                .outputFormat()
                .ifPresent(format -> input.put("output_format", format.equals("jpeg") ? "jpg" : format));
        call.image().outputCompression().ifPresent(quality -> input.put("output_quality", quality));
        ImageOptions.passThrough(input, call.image());
        return input;
    }
}
