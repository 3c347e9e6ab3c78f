package io.idem.core.chat;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Who makes a call and under which rules: the call's id, the API key, the lane (whose policy
 * decides about unconfirmed attempts) and any fault injection, keyed by model name.
 */
public record ChatCaller(
        UUID callId,
        Optional<UUID> apiKeyId,
        String owner,
        String lane,
        UnconfirmedPolicy unconfirmed,
        Map<String, String> simulate) {
    public ChatCaller {
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(apiKeyId, "apiKeyId");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(lane, "lane");
        Objects.requireNonNull(unconfirmed, "unconfirmed");
        simulate = Map.copyOf(simulate);
    }

    public String actor() {
        return apiKeyId.map(id -> "key:" + id).orElse("owner:" + owner);
    }
}
