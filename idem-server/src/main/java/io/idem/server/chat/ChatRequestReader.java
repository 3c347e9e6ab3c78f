package io.idem.server.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.chat.Chain;
import io.idem.core.chat.ChainAsk;
import io.idem.core.chat.ChainPlanner;
import io.idem.core.chat.ChainSettings;
import io.idem.core.chat.ChatMessage;
import io.idem.core.chat.ChatRequest;
import io.idem.core.chat.FailoverDefaults;
import io.idem.core.chat.InvalidChainException;
import io.idem.providers.fake.FakeChatModes;
import io.idem.server.http.ApiError;
import io.idem.server.http.Json;
import io.idem.server.http.MaxCost;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Reads an OpenAI chat completion request plus Idem's fields ({@code models}, {@code
 * fallback_models}, {@code redundancy}, {@code simulate}, {@code lane}) into a {@link ParsedCall}.
 * Everything else passes through to OpenAI-compatible vendors untouched. Refusals are 400s naming
 * the field ({@code param}). Thread-safe.
 */
final class ChatRequestReader {
    /** With {@code true}, a model that cannot honour a field is called without it (else: 400). */
    private static final String DROP_PARAMS = "drop_params";

    /** Fields Idem consumes; the rest is the vendor's. */
    private static final Set<String> IDEM_FIELDS = Set.of(
            "model",
            "models",
            "fallback_models",
            "redundancy",
            "simulate",
            "lane",
            "stream",
            "stream_options",
            DROP_PARAMS,
            MaxCost.FIELD);

    private static final Set<String> REDUNDANCY_FIELDS = Set.of(
            "timeout_ms",
            "first_token_timeout_ms",
            "stream_idle_timeout_ms",
            "retries",
            "on",
            "deadline_ms",
            "mid_stream");

    private final Predicate<String> knownModel;
    private final java.util.function.BiFunction<String, ChatRequest, Optional<String>> unhonoured;
    private final Predicate<String> fakeModel;
    private final Set<String> lanes;
    private final String defaultLane;

    /**
     * @param unhonoured for a model and a request, the first field the model's adapter would have to
     *     drop ({@link io.idem.core.chat.ChatAdapter#unhonoured})
     */
    ChatRequestReader(
            Predicate<String> knownModel,
            java.util.function.BiFunction<String, ChatRequest, Optional<String>> unhonoured,
            Predicate<String> fakeModel,
            Set<String> lanes,
            String defaultLane) {
        this.knownModel = knownModel;
        this.unhonoured = unhonoured;
        this.fakeModel = fakeModel;
        this.lanes = Set.copyOf(lanes);
        this.defaultLane = defaultLane;
    }

    ParsedCall read(JsonNode body, Optional<FailoverDefaults> keyDefaults) {
        Chain chain;
        try {
            ChainAsk ask = new ChainAsk(
                    body.hasNonNull("model")
                            ? Optional.of(ChainJson.modelName(body.get("model"), "model"))
                            : Optional.empty(),
                    body.has("models")
                            ? Optional.of(ChainJson.entries(body.get("models"), "models"))
                            : Optional.empty(),
                    body.has("fallback_models")
                            ? Optional.of(ChainJson.entries(body.get("fallback_models"), "fallback_models"))
                            : Optional.empty(),
                    body.has("redundancy")
                            ? ChainJson.settings(body.get("redundancy"), "redundancy", REDUNDANCY_FIELDS)
                            : ChainSettings.NONE);
            chain = ChainPlanner.plan(ask, keyDefaults);
            for (String model : chain.models()) {
                if (!knownModel.test(model)) {
                    throw new InvalidChainException(
                            source(body), "model_not_found", "model '" + model + "' is not offered by this gateway");
                }
            }
        } catch (InvalidChainException e) {
            throw invalid(e.code(), e.getMessage(), e.field());
        }
        boolean stream = flag(body, "stream");
        JsonNode streamOptions = body.path("stream_options");
        if (!streamOptions.isMissingNode() && !streamOptions.isNull() && !streamOptions.isObject()) {
            throw invalid("invalid_stream_options", "stream_options must be an object", "stream_options");
        }
        boolean includeUsage = streamOptions.path("include_usage").asBoolean(false);
        JsonNode n = body.path("n");
        if (!n.isMissingNode() && !n.isNull() && !(n.isIntegralNumber() && n.canConvertToInt() && n.asInt() == 1)) {
            throw invalid("unsupported_n", "Idem returns one choice: n must be 1", "n");
        }
        ChatRequest request = new ChatRequest(messages(body.get("messages")), vendorFields(body), maxTokens(body));
        if (!flag(body, DROP_PARAMS)) {
            refuseUnhonoured(chain, request);
        }
        return new ParsedCall(
                chain,
                request,
                stream,
                includeUsage,
                lane(body),
                simulate(body.get("simulate")),
                MaxCost.read(body, Map.of("type", "invalid_request_error", "param", MaxCost.FIELD)),
                body);
    }

    /** A field some model of the chain would have to drop: refused, unless the caller allows dropping it. */
    private void refuseUnhonoured(Chain chain, ChatRequest request) {
        for (String model : chain.models()) {
            Optional<String> field = unhonoured.apply(model, request);
            if (field.isPresent()) {
                throw invalid(
                        "unsupported_parameter",
                        "model '" + model + "' cannot honour '" + field.get() + "'; remove it, or send \"" + DROP_PARAMS
                                + "\": true to call such models without it",
                        field.get());
            }
        }
    }

    /** Which field a chain's models came from, for a refusal. */
    private static String source(JsonNode body) {
        if (body.has("models")) {
            return "models";
        }
        return body.has("fallback_models") ? "fallback_models" : body.has("model") ? "model" : "failover_defaults";
    }

    private static List<ChatMessage> messages(JsonNode node) {
        if (node == null || !node.isArray() || node.isEmpty()) {
            throw invalid("invalid_messages", "messages must be a non-empty list", "messages");
        }
        List<ChatMessage> messages = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode message = node.get(i);
            String field = "messages[" + i + "]";
            if (!message.isObject() || !message.path("role").isTextual()) {
                throw invalid("invalid_messages", field + " must be an object with a role", field);
            }
            messages.add(new ChatMessage(message.get("role").asText(), text(message.path("content"), field)));
        }
        return messages;
    }

    private static String text(JsonNode content, String field) {
        if (content.isTextual()) {
            return content.asText();
        }
        if (content.isMissingNode() || content.isNull()) {
            return "";
        }
        if (!content.isArray()) {
            throw invalid("invalid_messages", field + ".content must be text or a list of parts", field + ".content");
        }
        StringBuilder text = new StringBuilder();
        content.forEach(part -> {
            if (part.path("type").asText().equals("text")) {
                text.append(part.path("text").asText(""));
            }
        });
        return text.toString();
    }

    private static int maxTokens(JsonNode body) {
        for (String field : List.of("max_completion_tokens", "max_tokens")) {
            JsonNode value = body.get(field);
            if (value != null && !value.isNull()) {
                if (!value.isIntegralNumber() || !value.canConvertToInt() || value.asInt() < 1) {
                    throw invalid("invalid_" + field, field + " must be a positive whole number", field);
                }
                return value.asInt();
            }
        }
        return 0;
    }

    private String lane(JsonNode body) {
        JsonNode lane = body.get("lane");
        if (lane == null || lane.isNull()) {
            return defaultLane;
        }
        if (!lane.isTextual() || !lanes.contains(lane.asText())) {
            throw invalid("unknown_lane", "lane must be one of " + lanes, "lane");
        }
        return lane.asText();
    }

    private Map<String, String> simulate(JsonNode node) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw invalid("invalid_simulate", "simulate must map model names to fault modes", "simulate");
        }
        Map<String, String> modes = new LinkedHashMap<>();
        node.fields().forEachRemaining(entry -> {
            String field = "simulate." + entry.getKey();
            if (!fakeModel.test(entry.getKey())) {
                throw invalid(
                        "simulate_not_allowed",
                        "simulate is only accepted for models served by a fake provider; '" + entry.getKey()
                                + "' is not one",
                        field);
            }
            // one mode per try of the model, comma-separated, the last repeating: "http_503,ok"
            if (!entry.getValue().isTextual()
                    || Arrays.stream(entry.getValue().asText().split(",", -1)).anyMatch(m -> !FakeChatModes.known(m))) {
                throw invalid(
                        "invalid_simulate",
                        field + " must be one of " + FakeChatModes.MODES
                                + ", or several, comma-separated (one per try)",
                        field);
            }
            modes.put(entry.getKey(), entry.getValue().asText());
        });
        return modes;
    }

    private static boolean flag(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw invalid("invalid_" + field, field + " must be true or false", field);
        }
        return value.asBoolean();
    }

    private static String vendorFields(JsonNode body) {
        ObjectNode fields = Json.MAPPER.createObjectNode();
        body.fields().forEachRemaining(entry -> {
            if (!IDEM_FIELDS.contains(entry.getKey())) {
                fields.set(entry.getKey(), entry.getValue());
            }
        });
        return fields.toString();
    }

    static byte[] hash(JsonNode body) {
        ObjectNode hashed = body.deepCopy();
        hashed.remove(List.of("stream", "stream_options"));
        try {
            byte[] canonical = Json.CANONICAL.writeValueAsBytes(Json.CANONICAL.treeToValue(hashed, Object.class));
            return MessageDigest.getInstance("SHA-256").digest(canonical);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot hash a parsed request", e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    static ApiError invalid(String code, String message, String param) {
        return new ApiError(400, code, message, Map.of("type", "invalid_request_error", "param", param));
    }
}
