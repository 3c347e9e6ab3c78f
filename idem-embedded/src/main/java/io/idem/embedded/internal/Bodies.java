package io.idem.embedded.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.embedded.ChatRequest;
import io.idem.server.http.Json;

/** The API's chat requests as the {@code POST /v1/chat/completions} bodies the server reads. */
final class Bodies {
    private Bodies() {}

    static JsonNode chat(ChatRequest request) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", request.models().getFirst());
        if (request.models().size() > 1) {
            var fallbacks = body.putArray("fallback_models");
            request.models().subList(1, request.models().size()).forEach(fallbacks::add);
        }
        var messages = body.putArray("messages");
        request.messages()
                .forEach(m -> messages.addObject().put("role", m.role()).put("content", m.content()));
        if (request.maxTokens() > 0) {
            body.put("max_tokens", request.maxTokens());
        }
        if (!request.simulate().isEmpty()) {
            var simulate = body.putObject("simulate");
            request.simulate().forEach(simulate::put);
        }
        return body;
    }
}
