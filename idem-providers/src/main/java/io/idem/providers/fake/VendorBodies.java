package io.idem.providers.fake;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.idem.providers.http.PooledJson;
import java.util.Base64;
import java.util.List;
import java.util.stream.IntStream;

/** The fake vendor's JSON bodies (snake_case on the wire) and the one mapper that writes them. */
final class VendorBodies {
    static final ObjectMapper JSON = PooledJson.mapper();

    private VendorBodies() {}

    static byte[] write(Object body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + body.getClass().getSimpleName(), e);
        }
    }

    record Image(
            @JsonProperty("mime_type") String mimeType,
            @JsonProperty("b64_json") String b64Json) {}

    /**
     * A generation as the vendor shows it; {@code images} only when an image generation succeeded. A
     * video also shows its {@code kind}, {@code seconds} and {@code size}; its file is at {@code
     * /v1/videos/{id}/content} once it succeeded. An image shows the image parameters that arrived
     * ({@code image_options}: everything of the body beyond model, prompt, size, n and reference).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record GenerationView(
            String id,
            String reference,
            String status,
            boolean billed,
            String model,
            @JsonProperty("cost_usd") String costUsd,
            List<Image> images,
            @JsonUnwrapped Clip clip,
            @JsonProperty("image_options") JsonNode imageOptions) {

        static GenerationView of(Generation generation) {
            boolean succeeded = generation.status() == GenerationStatus.SUCCEEDED;
            boolean video = generation.request().video();
            return new GenerationView(
                    generation.id(),
                    generation.request().reference(),
                    generation.status().wire(),
                    generation.billed(),
                    generation.request().model(),
                    // What the caller owes for it: nothing unless it is on the invoice.
                    generation.billed() ? generation.costUsd().toPlainString() : "0",
                    succeeded && !video ? images(generation.request()) : null,
                    video
                            ? new Clip(
                                    "video",
                                    generation.request().seconds(),
                                    generation.request().size())
                            : new Clip(null, null, null),
                    video || generation.request().options().isEmpty()
                            ? null
                            : generation.request().options());
        }

        private static List<Image> images(GenerationRequest request) {
            return IntStream.range(0, request.n())
                    .mapToObj(index -> new Image(
                            SvgPainter.MIME_TYPE,
                            Base64.getEncoder()
                                    .encodeToString(SvgPainter.paint(request.prompt(), request.size(), index))))
                    .toList();
        }
    }

    /** A video's {@code kind}, {@code seconds} and {@code size} (all null for an image). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Clip(String kind, Integer seconds, String size) {}

    /** The {@code malformed} answer: claims success, carries no image. */
    record EmptySuccess(String id, String status, List<Image> images) {
        EmptySuccess(String id) {
            this(id, "succeeded", List.of());
        }
    }

    record Status(String status) {}

    record ErrorBody(ErrorDetail error) {
        static ErrorBody of(String code, String message) {
            return new ErrorBody(new ErrorDetail(null, code, message, null));
        }

        static ErrorBody invalidRequest(String code, String message) {
            return new ErrorBody(new ErrorDetail("invalid_request_error", code, message, null));
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ErrorDetail(String type, String code, String message, String status) {}

    record LedgerView(List<LedgerLine> generations) {
        static LedgerView of(List<LedgerEntry> entries) {
            return new LedgerView(entries.stream().map(LedgerLine::of).toList());
        }
    }

    record LedgerLine(
            String id,
            String reference,
            String model,
            @JsonProperty("cost_usd") String costUsd,
            @JsonProperty("billed_at") String billedAt) {
        static LedgerLine of(LedgerEntry entry) {
            return new LedgerLine(
                    entry.id(),
                    entry.reference(),
                    entry.model(),
                    entry.costUsd().toPlainString(),
                    entry.billedAt().toString());
        }
    }
}
