package io.idem.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.chat.FailoverDefaults;
import io.idem.core.chat.InvalidChainException;
import io.idem.server.http.ApiError;
import io.idem.server.http.Json;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A key's {@code failover_defaults}: {@code {"models": [...up to 3], "timeout_ms", "first_token_timeout_ms",
 * "stream_idle_timeout_ms", "retries", "on", "deadline_ms"}}, validated when an admin sets it ({@code PATCH /v1/admin/keys/{id}}) and parsed, cached by
 * its text, when a call uses it. Thread-safe.
 */
public final class FailoverDefaultsJson {
    static final Set<String> FIELDS = Set.of(
            "models", "timeout_ms", "first_token_timeout_ms", "on", "deadline_ms", "stream_idle_timeout_ms", "retries");
    private static final int CACHE_LIMIT = 10_000;
    private static final Map<String, FailoverDefaults> parsed = new ConcurrentHashMap<>();

    private FailoverDefaultsJson() {}

    /**
     * Validates a PATCH value and returns the JSON to store (empty: clear the defaults); every model
     * it names must be {@code offered}.
     *
     * @throws ApiError 400 naming the offending field
     */
    public static Optional<String> validate(JsonNode node, java.util.function.Predicate<String> offered) {
        if (node.isNull()) {
            return Optional.empty();
        }
        try {
            var models = read(node).models();
            for (int i = 0; i < models.size(); i++) {
                if (!offered.test(models.get(i).model())) {
                    throw new ApiError(
                            400,
                            "model_not_found",
                            "failover_defaults names model '" + models.get(i).model()
                                    + "', which is not offered by this gateway",
                            Map.of("param", "failover_defaults.models[" + i + "]"));
                }
            }
            return Optional.of(Json.MAPPER.writeValueAsString(node));
        } catch (InvalidChainException e) {
            throw new ApiError(400, "invalid_failover_defaults", e.getMessage(), Map.of("param", e.field()));
        } catch (IOException e) {
            throw ApiError.badRequest("invalid_failover_defaults", "failover_defaults is not valid JSON");
        }
    }

    /** The stored defaults of a key, parsed (they were validated when set). */
    static Optional<FailoverDefaults> of(Optional<String> stored) {
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        FailoverDefaults cached = parsed.get(stored.get());
        if (cached != null) {
            return Optional.of(cached);
        }
        try {
            FailoverDefaults defaults = read(Json.MAPPER.readTree(stored.get()));
            if (parsed.size() > CACHE_LIMIT) {
                parsed.clear();
            }
            parsed.put(stored.get(), defaults);
            return Optional.of(defaults);
        } catch (IOException | InvalidChainException e) {
            throw new IllegalStateException("stored failover_defaults no longer parse: " + e.getMessage(), e);
        }
    }

    private static FailoverDefaults read(JsonNode node) {
        if (!node.isObject()) {
            throw new InvalidChainException(
                    "failover_defaults", "invalid_failover_defaults", "failover_defaults must be an object or null");
        }
        if (!node.has("models")) {
            throw new InvalidChainException(
                    "failover_defaults.models", "invalid_failover_defaults", "failover_defaults.models is required");
        }
        return new FailoverDefaults(
                ChainJson.entries(node.get("models"), "failover_defaults.models"),
                ChainJson.settings(node, "failover_defaults", FIELDS));
    }
}
