package io.idem.providers.replicate;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.http.VendorJson;
import java.math.BigDecimal;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Replicate prediction as the API shows it (vendor-apis §4), read leniently.
 *
 * @param runs the model (as {@code owner/name}) and version it runs, and for how long it ran
 * @param started whether it ever ran ({@code started_at} set): an unstarted prediction bills nothing
 * @param dataRemoved input and output were deleted by Replicate's retention (one hour for API
 *     predictions)
 */
record Prediction(
        String id,
        Status status,
        String rawStatus,
        Runs runs,
        JsonNode input,
        JsonNode output,
        Optional<String> error,
        boolean started,
        boolean dataRemoved,
        Optional<String> getUrl) {

    /**
     * The model ({@code owner/name}) and version a prediction runs, empty strings when not shown,
     * and the seconds it ran ({@code metrics.predict_time}: what a public model bills), when shown.
     */
    record Runs(String model, String version, Optional<BigDecimal> predictSeconds) {}

    String model() {
        return runs.model();
    }

    String version() {
        return runs.version();
    }

    /** Replicate's states; anything new is {@code OTHER}, treated as not finished. */
    enum Status {
        STARTING,
        PROCESSING,
        SUCCEEDED,
        FAILED,
        CANCELED,
        ABORTED,
        OTHER;

        boolean terminal() {
            return this == SUCCEEDED || this == FAILED || this == CANCELED || this == ABORTED;
        }
    }

    static Optional<Prediction> read(JsonNode root) {
        Optional<String> id = VendorJson.text(root, "id");
        Optional<String> raw = VendorJson.text(root, "status");
        if (id.isEmpty() || raw.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Prediction(
                id.get(),
                status(raw.get()),
                raw.get(),
                new Runs(
                        VendorJson.text(root, "model").orElse(""),
                        VendorJson.text(root, "version").orElse(""),
                        predictSeconds(root.path("metrics").path("predict_time"))),
                root.path("input"),
                root.path("output"),
                VendorJson.text(root, "error"),
                VendorJson.text(root, "started_at").isPresent(),
                root.path("data_removed").asBoolean(false),
                VendorJson.text(root.path("urls"), "get")));
    }

    private static Optional<BigDecimal> predictSeconds(JsonNode time) {
        return time.isNumber() && time.decimalValue().signum() >= 0
                ? Optional.of(time.decimalValue())
                : Optional.empty();
    }

    private static Status status(String raw) {
        return switch (raw) {
            case "starting" -> Status.STARTING;
            case "processing" -> Status.PROCESSING;
            case "succeeded" -> Status.SUCCEEDED;
            case "failed" -> Status.FAILED;
            case "canceled" -> Status.CANCELED;
            case "aborted" -> Status.ABORTED;
            default -> Status.OTHER;
        };
    }

    /** The output files: a URL, or an array of URLs. Empty if there is none or any is unreadable. */
    List<URI> outputUrls() {
        List<JsonNode> items = new ArrayList<>();
        if (output.isArray()) {
            output.forEach(items::add);
        } else if (output.isTextual()) {
            items.add(output);
        }
        List<URI> urls = new ArrayList<>();
        for (JsonNode item : items) {
            Optional<URI> url = item.isTextual() ? VendorJson.uri(item.asText()) : Optional.empty();
            if (url.isEmpty()) {
                return List.of();
            }
            urls.add(url.get());
        }
        return urls;
    }
}
