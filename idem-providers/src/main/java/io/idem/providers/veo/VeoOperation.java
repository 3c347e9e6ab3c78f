package io.idem.providers.veo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.VideoParams;
import io.idem.core.outcome.GenerationResult;
import io.idem.providers.http.VendorJson;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Gemini API's long-running operation for Veo: the {@code predictLongRunning} body built from a
 * video request, and an operation as a submit or a poll answers it ({@code name}, {@code done},
 * {@code error}, {@code response.generateVideoResponse.generatedSamples[0].video.uri}).
 *
 * @param name the operation's name, {@code models/<model>/operations/<id>}
 * @param done whether it ended
 * @param error a failed operation's {@code error}, else missing
 * @param videoResponse {@code response.generateVideoResponse}, else missing
 */
record VeoOperation(String name, boolean done, JsonNode error, JsonNode videoResponse) {
    /** What an operation name may hold: it becomes a URL path. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*");

    /** The submit body; images come inline ({@code bytesBase64Encoded}), as the Gemini API takes them. */
    static byte[] body(
            String prompt,
            VideoParams video,
            Optional<GenerationResult.Media> first,
            Optional<GenerationResult.Media> last) {
        ObjectNode instance = VendorJson.MAPPER.createObjectNode().put("prompt", prompt);
        first.ifPresent(image -> instance.set("image", inline(image)));
        last.ifPresent(image -> instance.set("lastFrame", inline(image)));
        ObjectNode parameters = VendorJson.MAPPER
                .createObjectNode()
                .put("aspectRatio", video.aspectRatio())
                .put("durationSeconds", video.durationSeconds())
                .put("resolution", video.resolution())
                .put("sampleCount", 1);
        // The Gemini API refuses a seed for Veo (Vertex AI takes one): it is not sent.
        video.negativePrompt().ifPresent(text -> parameters.put("negativePrompt", text));
        ObjectNode body = VendorJson.MAPPER.createObjectNode();
        ArrayNode instances = body.putArray("instances");
        instances.add(instance);
        body.set("parameters", parameters);
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static ObjectNode inline(GenerationResult.Media image) {
        return VendorJson.MAPPER
                .createObjectNode()
                .put("bytesBase64Encoded", Base64.getEncoder().encodeToString(image.bytes()))
                .put("mimeType", image.mimeType());
    }

    /** The operation in {@code body}; empty without a well-formed name. */
    static Optional<VeoOperation> parse(byte[] body) {
        return VendorJson.parse(body)
                .flatMap(root -> VendorJson.text(root, "name")
                        .filter(name -> NAME.matcher(name).matches())
                        .map(name -> new VeoOperation(
                                name,
                                root.path("done").asBoolean(false),
                                root.path("error"),
                                root.path("response").path("generateVideoResponse"))));
    }

    boolean failed() {
        return done && error.isObject();
    }

    /** The first sample's download URI. */
    Optional<URI> video() {
        return VendorJson.text(videoResponse.path("generatedSamples").path(0).path("video"), "uri")
                .flatMap(VendorJson::uri);
    }
}
