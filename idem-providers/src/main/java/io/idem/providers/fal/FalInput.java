package io.idem.providers.fal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.VendorJson;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model input fal receives: {@code prompt}, {@code image_size} as {@code {width, height}} (the
 * form fal's image endpoints share) and {@code num_images} when more than one is asked for. Only
 * fields fal's image endpoints commonly accept are sent.
 */
final class FalInput {
    private static final Pattern SIZE = Pattern.compile("(\\d{2,5})x(\\d{2,5})");

    private FalInput() {}

    /** Why the call cannot go to fal at all (nothing is sent), if it cannot. */
    static Optional<Outcome> refusal(GenerationCall call, String endpointId) {
        if (!FalEndpoints.validEndpoint(endpointId)) {
            return Optional.of(new Outcome.Rejected(
                    RejectionKind.CONFIG,
                    "invalid_model",
                    "fal endpoint ids look like 'owner/app[/path]', was '" + endpointId + "'",
                    0,
                    null));
        }
        if (call.kind() != null && !call.kind().equals("image")) {
            return Optional.of(new Outcome.Rejected(
                    RejectionKind.CONFIG,
                    "unsupported_kind",
                    "the fal adapter makes images, not " + call.kind(),
                    0,
                    null));
        }
        if (call.size() != null && !SIZE.matcher(call.size()).matches()) {
            return Optional.of(new Outcome.Rejected(
                    RejectionKind.USER_ERROR,
                    "invalid_size",
                    "size must look like 1024x1024, was " + call.size(),
                    0,
                    null));
        }
        return Optional.empty();
    }

    static ObjectNode of(GenerationCall call) {
        ObjectNode input = VendorJson.MAPPER.createObjectNode().put("prompt", call.prompt());
        if (call.size() != null) {
            Matcher size = SIZE.matcher(call.size());
            if (size.matches()) {
                input.putObject("image_size")
                        .put("width", Integer.parseInt(size.group(1)))
                        .put("height", Integer.parseInt(size.group(2)));
            }
        }
        if (call.n() > 1) {
            input.put("num_images", call.n());
        }
        return input;
    }
}
