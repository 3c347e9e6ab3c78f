package io.idem.providers.fal;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Predicate;

/**
 * fal's request history ({@code GET /v1/models/requests/by-endpoint?…&expand=payloads}): finds a
 * request by its id, or by its input within a time window when the submit answer (and with it the
 * id) was lost. The history lists requests by end time, so one still queued or running may not be
 * in it yet. Thread-safe.
 */
final class FalHistory {
    static final int MAX_PAGES = 10;

    private final FalQueue queue;

    FalHistory(FalQueue queue) {
        this.queue = queue;
    }

    /** One request in the history; {@code statusCode} is absent while it has not ended. */
    record Entry(String requestId, OptionalInt statusCode, JsonNode input, JsonNode output) {}

    /** What a search found. */
    sealed interface Search {
        record Found(Entry entry) implements Search {}

        record None() implements Search {}

        record Ambiguous(int count) implements Search {}

        record Failed(String detail) implements Search {}
    }

    Search find(String endpointId, Instant start, Instant end, Optional<String> requestId, Predicate<Entry> ours) {
        List<Entry> matches = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        for (int page = 0; page < MAX_PAGES; page++) {
            URI uri = queue.endpoints().history(endpointId, start, end, requestId, cursor);
            VendorExchange exchange = queue.get(uri, VendorCalls.LOOKUP_TIMEOUT);
            if (!(exchange instanceof VendorExchange.Answered answered)) {
                return new Search.Failed("history lookup failed: " + ((VendorExchange.Failed) exchange).detail());
            }
            Optional<JsonNode> root = VendorJson.parse(answered.response().body())
                    .filter(r -> answered.response().statusCode() == 200)
                    .filter(r -> r.path("items").isArray());
            if (root.isEmpty()) {
                return new Search.Failed(
                        "history lookup answered HTTP " + answered.response().statusCode());
            }
            for (JsonNode item : root.get().path("items")) {
                entry(item).filter(ours).ifPresent(matches::add);
            }
            cursor = VendorJson.text(root.get(), "next_cursor");
            if (cursor.isEmpty() || !root.get().path("has_more").asBoolean(true)) {
                return verdict(matches);
            }
        }
        return new Search.Failed("history lookup gave more than " + MAX_PAGES + " pages; narrow it by hand");
    }

    private static Search verdict(List<Entry> matches) {
        return switch (matches.size()) {
            case 0 -> new Search.None();
            case 1 -> new Search.Found(matches.getFirst());
            default -> new Search.Ambiguous(matches.size());
        };
    }

    private static Optional<Entry> entry(JsonNode item) {
        Optional<String> id = VendorJson.text(item, "request_id").filter(FalEndpoints::validRequestId);
        JsonNode code = item.path("status_code");
        OptionalInt status =
                code.canConvertToInt() && code.isNumber() ? OptionalInt.of(code.asInt()) : OptionalInt.empty();
        return id.map(requestId -> new Entry(requestId, status, item.path("json_input"), item.path("json_output")));
    }
}
