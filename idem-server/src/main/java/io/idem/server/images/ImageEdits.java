package io.idem.server.images;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.ImageParams;
import io.idem.core.domain.InputImage;
import io.idem.server.http.ApiError;
import io.idem.server.http.Json;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a {@code POST /v1/images/edits} request: OpenAI's multipart form ({@code image} once or
 * more, or {@code image[]}; an optional {@code mask}; the other fields as text parts) or JSON with
 * {@code images: [{image_url: "data:image/png;base64,…"}]} and {@code mask: {image_url}}. Uploads are
 * bounded ({@value InputImage#MAX_BYTES} bytes each, {@value InputImage#MAX_IMAGES} images) and
 * must be PNG, JPEG or WebP by their bytes; anything else is a 400 naming the part.
 */
final class ImageEdits {
    /** The text fields an edit may carry; numbers among them are read as numbers. */
    private static final Set<String> NUMBERS =
            Set.of("n", ImageParams.OUTPUT_COMPRESSION, "timeout", "deadline_seconds");

    private static final Set<String> FILES = Set.of("image", "image[]", "mask");

    /** The most an edit's whole body may be: its images, its mask and room for the fields. */
    static final long MAX_BODY_BYTES = (InputImage.MAX_IMAGES + 1L) * InputImage.MAX_BYTES + 1024 * 1024;

    /** The request body as a job request, and the uploads it starts from. */
    record Edit(JsonNode body, List<InputImage> inputs) {}

    private ImageEdits() {}

    static Edit read(Context ctx, long maxJsonBytes) {
        if (!ctx.isMultipartFormData()) {
            return json(Json.readObject(ctx, maxJsonBytes));
        }
        String length = ctx.header("Content-Length");
        if (length == null || !length.matches("\\d{1,18}")) {
            throw new ApiError(411, "length_required", "an edit upload needs a Content-Length");
        }
        if (Long.parseLong(length) > MAX_BODY_BYTES) {
            throw new ApiError(413, "payload_too_large", "an edit is over " + MAX_BODY_BYTES + " bytes");
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        for (Map.Entry<String, List<String>> field : ctx.formParamMap().entrySet()) {
            if (FILES.contains(field.getKey())) {
                continue; // the uploads are read below, as files (a text part of that name is no image)
            }
            String value = field.getValue().getFirst();
            if (NUMBERS.contains(field.getKey()) && value.matches("-?\\d{1,9}")) {
                body.put(field.getKey(), Integer.parseInt(value));
            } else {
                body.put(field.getKey(), value);
            }
        }
        List<InputImage> inputs = new ArrayList<>();
        for (String name : List.of("image", "image[]")) {
            for (UploadedFile file : ctx.uploadedFiles(name)) {
                inputs.add(upload("image", false, file));
            }
        }
        List<UploadedFile> masks = ctx.uploadedFiles("mask");
        if (masks.size() > 1) {
            throw ApiError.badRequest("invalid_mask", "an edit takes one mask");
        }
        for (UploadedFile mask : masks) {
            inputs.add(upload("mask", true, mask));
        }
        return new Edit(body, checked(inputs));
    }

    private static InputImage upload(String field, boolean mask, UploadedFile file) {
        if (file.size() > InputImage.MAX_BYTES) {
            throw ApiError.badRequest(
                    "invalid_" + field,
                    field + " '" + file.filename() + "' is over " + InputImage.MAX_BYTES + " bytes");
        }
        byte[] bytes;
        try (InputStream in = file.content()) {
            bytes = in.readNBytes(InputImage.MAX_BYTES + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return image(field, mask, bytes, "'" + file.filename() + "'");
    }

    private static InputImage image(String field, boolean mask, byte[] bytes, String which) {
        if (bytes.length > InputImage.MAX_BYTES) {
            throw ApiError.badRequest(
                    "invalid_" + field, field + " " + which + " is over " + InputImage.MAX_BYTES + " bytes");
        }
        return InputImage.of(mask, bytes)
                .orElseThrow(() -> ApiError.badRequest(
                        "invalid_" + field, field + " " + which + " is not a PNG, JPEG or WebP image"));
    }

    private static List<InputImage> checked(List<InputImage> inputs) {
        long images = inputs.stream().filter(i -> !i.mask()).count();
        if (images == 0) {
            throw ApiError.badRequest("missing_image", "an edit needs at least one image");
        }
        if (images > InputImage.MAX_IMAGES) {
            throw ApiError.badRequest("invalid_image", "an edit takes at most " + InputImage.MAX_IMAGES + " images");
        }
        return inputs;
    }

    /** The JSON form: {@code images} (or one {@code image}) and {@code mask} as {@code {image_url}} data URLs. */
    private static Edit json(JsonNode body) {
        ObjectNode rest = body.deepCopy();
        List<InputImage> inputs = new ArrayList<>();
        JsonNode images = rest.remove("images");
        if (images != null && !images.isArray()) {
            throw ApiError.badRequest("invalid_images", "images must be a list of {image_url}");
        }
        if (images != null) {
            for (JsonNode image : images) {
                inputs.add(dataUrl("images", false, image));
            }
        }
        JsonNode mask = rest.remove("mask");
        if (mask != null && !mask.isNull()) {
            inputs.add(dataUrl("mask", true, mask));
        }
        return new Edit(rest, checked(inputs));
    }

    private static InputImage dataUrl(String field, boolean mask, JsonNode node) {
        String url = node.path("image_url").asText("");
        int comma = url.indexOf(',');
        if (!url.startsWith("data:image/")
                || comma < 0
                || !url.substring(0, comma).endsWith(";base64")) {
            throw ApiError.badRequest("invalid_" + field, field + " takes {image_url} as a data:image/...;base64 URL");
        }
        if (url.length() - comma > InputImage.MAX_BYTES / 3 * 4 + 8) {
            throw ApiError.badRequest("invalid_" + field, field + " is over " + InputImage.MAX_BYTES + " bytes");
        }
        try {
            return image(field, mask, Base64.getDecoder().decode(url.substring(comma + 1)), "");
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("invalid_" + field, field + " is not valid base64");
        }
    }
}
