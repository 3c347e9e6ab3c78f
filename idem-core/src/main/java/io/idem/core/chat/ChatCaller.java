package io.idem.core.chat;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Who makes a call and under which rules: the call's id, the API key, the lane (whose policy
 * decides about unconfirmed attempts) and any fault injection, keyed by model name.
 *
 * @param maxCostUsd the call's own cost ceiling ({@code max_cost_usd}), over all its attempts
 * @param keyBudgeted the key carries a daily or monthly budget: every attempt holds its expected
 *     cost on it
 */
public record ChatCaller(
        UUID callId,
        Optional<UUID> apiKeyId,
        String owner,
        String lane,
        UnconfirmedPolicy unconfirmed,
        Map<String, String> simulate,
        Optional<BigDecimal> maxCostUsd,
        boolean keyBudgeted) {
    public ChatCaller {
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(apiKeyId, "apiKeyId");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(lane, "lane");
        Objects.requireNonNull(unconfirmed, "unconfirmed");
        simulate = Map.copyOf(simulate);
        Objects.requireNonNull(maxCostUsd, "maxCostUsd");
    }

    /** A caller without a cost ceiling whose key carries no budget. */
    public ChatCaller(
            UUID callId,
            Optional<UUID> apiKeyId,
            String owner,
            String lane,
            UnconfirmedPolicy unconfirmed,
            Map<String, String> simulate) {
        this(callId, apiKeyId, owner, lane, unconfirmed, simulate, Optional.empty(), false);
    }

    public String actor() {
        return apiKeyId.map(id -> "key:" + id).orElse("owner:" + owner);
    }
}
