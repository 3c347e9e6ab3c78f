package io.idem.server.chat;

import io.idem.core.chat.Chain;
import io.idem.core.chat.ChatRequest;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated {@code POST /v1/chat/completions}: the resolved chain, what every model is asked, how
 * to answer (stream, usage chunk), the lane, fault injection by model, the call's cost ceiling
 * ({@code max_cost_usd}), and the request body for the {@code Idempotency-Key}, computed only when a
 * key is sent.
 */
record ParsedCall(
        Chain chain,
        ChatRequest request,
        boolean stream,
        boolean includeUsage,
        String lane,
        Map<String, String> simulate,
        Optional<BigDecimal> maxCostUsd,
        com.fasterxml.jackson.databind.JsonNode body) {
    ParsedCall {
        Objects.requireNonNull(chain, "chain");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(lane, "lane");
        simulate = Map.copyOf(simulate);
        Objects.requireNonNull(maxCostUsd, "maxCostUsd");
        Objects.requireNonNull(body, "body");
    }

    /** The hash an {@code Idempotency-Key} is bound to: the body without {@code stream} and {@code stream_options}, so a replay may be asked for either way. */
    byte[] hash() {
        return ChatRequestReader.hash(body);
    }
}
