package io.idem.providers.replicate;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.providers.http.VendorJson;
import io.idem.providers.http.VendorText;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Maps Replicate's answers onto outcomes (vendor-apis §4 "Mapping"). Errors are RFC 7807 problem
 * details ({@code type, title, status, detail}, sometimes {@code invalid_fields[]}); the vendor's
 * code kept on the outcome is the first invalid field's {@code type}, else the title as a
 * snake_case word. A prediction that failed at model level has only free text, so it is classified
 * by its words.
 */
final class ReplicateErrors {
    private static final Pattern POLICY_WORDS = Pattern.compile(
            "nsfw|not safe for work|safety|content polic|flagged|sensitive content|prohibited",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern INPUT_WORDS = Pattern.compile(
            "invalid|must be|out of range|not supported|unsupported|validation", Pattern.CASE_INSENSITIVE);

    private ReplicateErrors() {}

    /** What one problem answer says. */
    record Problem(String code, String message) {}

    static Problem read(int status, byte[] body, VendorText text) {
        Optional<JsonNode> root = VendorJson.parse(body);
        if (root.isEmpty()) {
            return new Problem("http_" + status, "HTTP " + status);
        }
        JsonNode problem = root.get();
        Optional<String> fieldType =
                VendorJson.text(problem.path("invalid_fields").path(0), "type");
        String code = fieldType
                .or(() -> VendorJson.text(problem, "title")
                        .map(ReplicateErrors::snake)
                        .filter(s -> !s.isEmpty()))
                .orElse("http_" + status);
        String message = VendorJson.text(problem, "detail")
                .or(() -> VendorJson.text(problem, "title"))
                .map(text::safe)
                .orElse("HTTP " + status);
        return new Problem(code, message);
    }

    /**
     * A non-2xx answer to the create POST. A 5xx may come after the prediction was created, so it is
     * unconfirmed (reconcile looks for it in the listing); a 4xx created nothing.
     */
    static Outcome createRefused(HttpResponse<byte[]> response, VendorText text) {
        int status = response.statusCode();
        Problem problem = read(status, response.body(), text);
        return switch (status) {
            case 400, 422 ->
                new Outcome.Rejected(RejectionKind.USER_ERROR, problem.code(), problem.message(), status, null);
            case 401, 402, 403, 404 -> Outcome.Rejected.unusable(problem.code(), problem.message(), status, null);
            case 429 -> new Outcome.Unavailable(problem.code(), problem.message(), status, null);
            default ->
                new Outcome.Unconfirmed(
                        status >= 500 && status <= 599 ? problem.code() : "unexpected_status",
                        "create answered HTTP " + status + ": " + problem.message(),
                        status,
                        null);
        };
    }

    /**
     * A prediction that ran and failed (billed for its run time). Safety refusals and bad input end
     * the job; anything else (the model crashed) is left unconfirmed, so reconcile closes it as
     * failed-and-billed and the job moves on to its next candidate.
     */
    static Outcome failed(Prediction prediction, VendorText text) {
        String said = errorText(prediction, text);
        String message = "prediction " + prediction.id() + " failed: " + said;
        if (POLICY_WORDS.matcher(said).find()) {
            return new Outcome.Rejected(RejectionKind.POLICY, "content_policy", message, 0, prediction.id());
        }
        if (INPUT_WORDS.matcher(said).find()) {
            return new Outcome.Rejected(RejectionKind.USER_ERROR, "invalid_input", message, 0, prediction.id());
        }
        return new Outcome.Unconfirmed("prediction_failed", message, 0, prediction.id());
    }

    /** The prediction's own error text, safe to keep. */
    static String errorText(Prediction prediction, VendorText text) {
        return prediction.error().map(text::safe).orElse("no error text");
    }

    private static String snake(String title) {
        String words = title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
        return words.replaceAll("^_+|_+$", "");
    }
}
