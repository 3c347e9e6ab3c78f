package io.idem.server.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.ImageParams;
import io.idem.core.domain.InputImage;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobSpec;
import io.idem.server.http.ApiError;
import io.idem.server.http.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The image fields of a job request ({@code quality}, {@code style}, {@code background},
 * {@code output_format}, {@code output_compression}, {@code moderation}, {@code provider_options}),
 * read into {@link ImageParams}. Every bad value is a 400 naming its field. Whether a provider
 * honours them is routing's question (its capabilities), not this one's.
 */
final class ImageRequests {
    /** The fields only an image request may carry. */
    static final List<String> FIELDS = List.of(
            ImageParams.QUALITY,
            ImageParams.STYLE,
            ImageParams.BACKGROUND,
            ImageParams.OUTPUT_FORMAT,
            ImageParams.OUTPUT_COMPRESSION,
            ImageParams.MODERATION,
            ImageParams.PROVIDER_OPTIONS);

    private ImageRequests() {}

    /** An image request's parameters; for a video request, none (and an image field is refused). */
    static ImageParams read(JsonNode body, JobKind kind) {
        if (kind != JobKind.IMAGE) {
            for (String field : FIELDS) {
                if (body.has(field) && !body.get(field).isNull()) {
                    throw ApiError.badRequest(
                            "invalid_" + field, field + " applies to image jobs only (kind is " + kind + ")");
                }
            }
            return ImageParams.NONE;
        }
        Optional<String> format = oneOf(body, ImageParams.OUTPUT_FORMAT, ImageParams.OUTPUT_FORMATS);
        return new ImageParams(
                oneOf(body, ImageParams.QUALITY, ImageParams.QUALITIES),
                oneOf(body, ImageParams.STYLE, ImageParams.STYLES),
                oneOf(body, ImageParams.BACKGROUND, ImageParams.BACKGROUNDS),
                format,
                compression(body, format),
                oneOf(body, ImageParams.MODERATION, ImageParams.MODERATIONS),
                providerOptions(body));
    }

    /** Everything of an image's own parameters that reaches a vendor, for the idempotency hash (nothing when none). */
    static Map<String, Object> canonical(JobSpec spec) {
        Map<String, Object> out = new TreeMap<>(spec.image().values());
        if (!spec.image().inputs().isEmpty()) {
            // an edit's uploads by their digests: the same files hash alike, other files differ
            out.put(
                    ImageParams.IMAGE,
                    spec.image().inputs().stream().map(InputImage::digest).toList());
        }
        return out;
    }

    private static Optional<String> oneOf(JsonNode body, String field, List<String> allowed) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isTextual() || !allowed.contains(node.textValue())) {
            throw ApiError.badRequest("invalid_" + field, field + " must be one of " + allowed + ", was " + node);
        }
        return Optional.of(node.textValue());
    }

    private static Optional<Integer> compression(JsonNode body, Optional<String> format) {
        JsonNode node = body.get(ImageParams.OUTPUT_COMPRESSION);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        int value = JobRequests.integer(body, ImageParams.OUTPUT_COMPRESSION, 0, 0, 100);
        if (format.isEmpty() || format.get().equals("png")) {
            throw ApiError.badRequest(
                    "invalid_" + ImageParams.OUTPUT_COMPRESSION,
                    ImageParams.OUTPUT_COMPRESSION + " needs output_format jpeg or webp");
        }
        return Optional.of(value);
    }

    /** {@code provider_options}: an object, kept as canonical JSON, bounded in size. */
    private static Optional<String> providerOptions(JsonNode body) {
        JsonNode node = body.get(ImageParams.PROVIDER_OPTIONS);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        String field = ImageParams.PROVIDER_OPTIONS;
        if (!node.isObject()) {
            throw ApiError.badRequest("invalid_" + field, field + " must be an object");
        }
        String json;
        try {
            Object tree = Json.CANONICAL.treeToValue(node, Object.class);
            json = new String(Json.CANONICAL.writeValueAsBytes(tree), StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("invalid_" + field, field + " is not valid JSON");
        }
        if (json.length() > ImageParams.MAX_PROVIDER_OPTIONS_CHARS) {
            throw ApiError.badRequest(
                    field + "_too_large",
                    field + " is over " + ImageParams.MAX_PROVIDER_OPTIONS_CHARS + " characters as JSON");
        }
        return Optional.of(json);
    }
}
