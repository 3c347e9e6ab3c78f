package io.idem.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.server.http.Json;
import java.util.Map;
import java.util.TreeMap;

/**
 * Merges the {@code tool_calls} deltas of a stream into whole calls, as OpenAI streams them: the
 * deltas for index i carry {@code id}, {@code type} and {@code function.name} first, then {@code
 * function.arguments} in fragments, appended in order. Not thread-safe (one stream's writer).
 */
final class StreamedToolCalls {
    private final Map<Integer, ObjectNode> calls = new TreeMap<>();

    /** Takes the {@code tool_calls} of one delta (anything else is ignored). */
    void take(JsonNode toolCalls) {
        if (!toolCalls.isArray()) {
            return;
        }
        for (JsonNode part : toolCalls) {
            int index = part.path("index").asInt(calls.size());
            ObjectNode call = calls.computeIfAbsent(index, i -> newCall());
            copyText(part, call, "id");
            copyText(part, call, "type");
            JsonNode function = part.path("function");
            ObjectNode merged = (ObjectNode) call.get("function");
            copyText(function, merged, "name");
            if (function.path("arguments").isTextual()) {
                merged.put(
                        "arguments",
                        merged.path("arguments").asText("")
                                + function.get("arguments").asText());
            }
        }
    }

    boolean isEmpty() {
        return calls.isEmpty();
    }

    /** The whole calls in index order, as a message's {@code tool_calls}. */
    ArrayNode calls() {
        ArrayNode array = Json.MAPPER.createArrayNode();
        calls.values().forEach(array::add);
        return array;
    }

    private static ObjectNode newCall() {
        ObjectNode call = Json.MAPPER.createObjectNode();
        call.put("id", "").put("type", "function");
        call.putObject("function").put("name", "").put("arguments", "");
        return call;
    }

    private static void copyText(JsonNode from, ObjectNode to, String field) {
        if (from.path(field).isTextual()) {
            to.put(field, from.get(field).asText());
        }
    }
}
