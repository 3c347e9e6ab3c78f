package io.idem.providers.replicate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.VendorJson;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model input a prediction receives: {@code prompt}, {@code width}/{@code height} for a size,
 * and {@code num_outputs} when more than one image is asked for. Every Replicate model has its own
 * schema; these are the names most image models share (FLUX models size by {@code aspect_ratio}
 * and answer at their default size). Nothing of ours (no reference) goes into the input: a model
 * may pass unknown inputs to its code, and fail.
 */
final class ReplicateInput {
    private static final Pattern SIZE = Pattern.compile("(\\d{2,5})x(\\d{2,5})");

    private ReplicateInput() {}

    /** Why the call cannot go to Replicate at all (nothing is sent), if it cannot. */
    static Optional<Outcome> refusal(GenerationCall call, String vendorModel) {
        if (ReplicateModel.parse(vendorModel).isEmpty()) {
            return Optional.of(new Outcome.Rejected(
                    RejectionKind.CONFIG,
                    "invalid_model",
                    "Replicate models look like 'owner/name', 'owner/name:<version>' or 'deployments/owner/name', was '"
                            + vendorModel + "'",
                    0,
                    null));
        }
        if (call.kind() != null && !call.kind().equals("image")) {
            return Optional.of(new Outcome.Rejected(
                    RejectionKind.CONFIG,
                    "unsupported_kind",
                    "the Replicate adapter makes images, not " + call.kind(),
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
                input.put("width", Integer.parseInt(size.group(1))).put("height", Integer.parseInt(size.group(2)));
            }
        }
        if (call.n() > 1) {
            input.put("num_outputs", call.n());
        }
        return input;
    }
}
