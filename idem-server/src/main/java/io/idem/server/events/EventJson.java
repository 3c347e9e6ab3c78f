package io.idem.server.events;

import io.idem.core.spi.EventReads;
import io.idem.core.spi.StoredChatAttempt;
import io.idem.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON of the event stream and of chat attempts (every field always present, {@code null} when unset). */
public final class EventJson {
    private EventJson() {}

    public static Map<String, Object> event(EventReads.Event e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", e.id());
        out.put("source", e.source().wire());
        out.put("type", e.type());
        out.put("at", e.at().toString());
        out.put("job_id", e.jobId().map(Object::toString).orElse(null));
        out.put("provider", e.provider().orElse(null));
        out.put("model", e.model().orElse(null));
        out.put("data", data(e.dataJson()));
        return out;
    }

    /** The event's data as parsed JSON, for renderers that walk it. */
    public static Object data(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("an event's data is not JSON", e);
        }
    }

    static Map<String, Object> attempt(StoredChatAttempt a) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", a.id());
        out.put("call_id", a.callId().toString());
        out.put("seq", a.seq());
        out.put("owner", a.owner());
        out.put("api_key_id", a.apiKeyId().map(Object::toString).orElse(null));
        out.put("lane", a.route().lane());
        out.put("requested_model", a.route().requestedModel());
        out.put("model", a.route().model());
        out.put("provider", a.route().provider());
        out.put("vendor_model", a.route().vendorModel());
        out.put("stream", a.route().stream());
        out.put("outcome", a.answer().outcome());
        out.put("error_code", a.answer().errorCode().orElse(null));
        out.put("error_message", a.answer().errorMessage().orElse(null));
        out.put("reason", a.answer().reason().orElse(null));
        out.put("http_status", a.answer().httpStatus() == 0 ? null : a.answer().httpStatus());
        out.put("provider_request_id", a.answer().providerRequestId().orElse(null));
        out.put("latency_ms", a.timing().latencyMs());
        out.put("first_token_ms", a.timing().firstTokenMs().orElse(null));
        out.put("prompt_tokens", a.bill().promptTokens());
        out.put("completion_tokens", a.bill().completionTokens());
        out.put("usage_estimated", a.bill().usageEstimated());
        out.put("billable", a.bill().billable());
        out.put("cost_usd", a.bill().costUsd().stripTrailingZeros().toPlainString());
        out.put("started_at", a.timing().startedAt().toString());
        out.put("finished_at", a.timing().finishedAt().toString());
        return out;
    }
}
