package io.idem.server.videos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.JobKind;
import io.idem.server.http.ApiError;

/**
 * Turns an OpenAI video request ({@code model}, {@code prompt}, {@code seconds}, {@code size}) into
 * an Idem job request of kind {@code video}, which the job intake then reads like any other: so the
 * same clip asked for here or at {@code POST /v1/jobs} is the same request to idempotency. Idem's own
 * job fields ({@code lane}, {@code provider_policy}, {@code simulate}, {@code duration_seconds}, …)
 * pass through.
 */
final class OpenAiVideoRequests {
    private OpenAiVideoRequests() {}

    static ObjectNode toJob(JsonNode body) {
        ObjectNode job = ((ObjectNode) body).deepCopy();
        JsonNode kind = job.get("kind");
        if (kind != null && !kind.isNull() && !JobKind.VIDEO.wire().equals(kind.asText())) {
            throw ApiError.badRequest("invalid_kind", "/v1/videos makes videos; kind must be video, was " + kind);
        }
        job.put("kind", JobKind.VIDEO.wire());
        JsonNode seconds = job.remove("seconds");
        if (seconds != null && !seconds.isNull()) {
            if (job.has("duration_seconds")) {
                throw ApiError.badRequest("invalid_seconds", "give seconds or duration_seconds, not both");
            }
            job.put("duration_seconds", seconds(seconds));
        }
        return job;
    }

    /** OpenAI sends {@code "4"}; a number is taken too. */
    private static int seconds(JsonNode node) {
        String text = node.isIntegralNumber() ? node.asText() : node.isTextual() ? node.textValue() : "";
        if (!text.matches("[0-9]{1,4}")) {
            throw ApiError.badRequest("invalid_seconds", "seconds must be a whole number of seconds, was " + node);
        }
        return Integer.parseInt(text);
    }
}
