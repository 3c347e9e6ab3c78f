package io.idem.server.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.webhook.EventType;
import io.idem.server.http.ApiError;
import io.idem.server.http.Json;
import io.idem.server.outbound.OutboundUrls;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code POST /v1/webhooks}: {@code url} (an address events may go to), {@code event_types}
 * (known names or {@code *}; job events only for a key that is not an admin's) and an optional
 * {@code description}. Anything else is refused with a 4xx and nothing is stored.
 */
final class SubscriptionRequests {
    static final int MAX_DESCRIPTION = 200;
    private static final Set<String> FIELDS = Set.of("url", "event_types", "description");
    private static final List<String> KNOWN =
            Arrays.stream(EventType.values()).map(EventType::wire).toList();

    private final OutboundUrls urls;

    SubscriptionRequests(OutboundUrls urls) {
        this.urls = urls;
    }

    /** A validated request. */
    record Request(String url, List<String> eventTypes, Optional<String> description) {}

    Request read(JsonNode body, boolean admin) {
        Json.refuseUnknown(body, FIELDS);
        if (!body.hasNonNull("url") || !body.get("url").isTextual()) {
            throw ApiError.badRequest("invalid_url", "url is required: an http or https URL");
        }
        String url = urls.check("url", body.get("url").textValue()).toString();
        List<String> types = eventTypes(body.get("event_types"), admin);
        String description = Json.text(body, "description", null);
        if (description != null && (description.length() > MAX_DESCRIPTION || description.isBlank())) {
            throw ApiError.badRequest(
                    "invalid_description", "description must be 1.." + MAX_DESCRIPTION + " characters");
        }
        return new Request(url, types, Optional.ofNullable(description));
    }

    private static List<String> eventTypes(JsonNode node, boolean admin) {
        if (node == null || !node.isArray() || node.isEmpty() || node.size() > KNOWN.size() + 1) {
            throw ApiError.badRequest(
                    "invalid_event_types",
                    "event_types must be a non-empty list of event types or \"*\"; known: " + KNOWN);
        }
        Set<String> types = new LinkedHashSet<>();
        for (JsonNode entry : node) {
            String name = entry.isTextual() ? entry.textValue() : entry.toString();
            if (!name.equals(EventType.ALL) && EventType.fromWire(name).isEmpty()) {
                throw ApiError.badRequest(
                        "invalid_event_types",
                        "unknown event type '" + clip(name) + "'; known: " + KNOWN + " or \"*\"");
            }
            boolean jobEvent =
                    EventType.fromWire(name).map(EventType::aboutAJob).orElse(false);
            if (!admin && !jobEvent && !name.equals(EventType.ALL)) {
                throw new ApiError(
                        403,
                        "event_type_not_allowed",
                        "only an admin key may subscribe to '" + name
                                + "'; other keys get job events of their own jobs");
            }
            types.add(name);
        }
        return new ArrayList<>(types);
    }

    private static String clip(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "…";
    }
}
