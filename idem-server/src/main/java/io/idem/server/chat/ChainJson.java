package io.idem.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.chat.ChainEntry;
import io.idem.core.chat.ChainLimits;
import io.idem.core.chat.ChainSettings;
import io.idem.core.chat.InvalidChainException;
import io.idem.core.chat.MidStream;
import io.idem.core.chat.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads chain fields from JSON, for requests ({@code models}, {@code fallback_models}, {@code
 * redundancy}) and for a key's {@code failover_defaults} alike. Every refusal names the field.
 */
final class ChainJson {
    private static final Set<String> ENTRY_FIELDS =
            Set.of("model", "timeout_ms", "first_token_timeout_ms", "stream_idle_timeout_ms", "retries");

    private ChainJson() {}

    /**
     * A list of entries: model names or {@code {model, timeout_ms, first_token_timeout_ms,
     * stream_idle_timeout_ms, retries}}.
     */
    static List<ChainEntry> entries(JsonNode node, String field) {
        if (!node.isArray()) {
            throw invalid(field, "must be a list of model names or {model, timeout_ms, first_token_timeout_ms, …}");
        }
        List<ChainEntry> entries = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            entries.add(entry(node.get(i), field + "[" + i + "]"));
        }
        return entries;
    }

    private static ChainEntry entry(JsonNode node, String field) {
        if (node.isTextual()) {
            return ChainEntry.of(modelName(node, field));
        }
        if (!node.isObject()) {
            throw invalid(field, "must be a model name or {model, timeout_ms, first_token_timeout_ms, …}");
        }
        node.fieldNames().forEachRemaining(name -> {
            if (!ENTRY_FIELDS.contains(name)) {
                throw invalid(field + "." + name, "is not a known field; known: " + ENTRY_FIELDS);
            }
        });
        return new ChainEntry(
                modelName(node.path("model"), field + ".model"),
                millis(node, field, "timeout_ms").map(ms -> ChainLimits.timeout(ms, field + ".timeout_ms")),
                millis(node, field, "first_token_timeout_ms")
                        .map(ms -> ChainLimits.firstToken(ms, field + ".first_token_timeout_ms")),
                streamIdle(node, field),
                retries(node, field));
    }

    static String modelName(JsonNode node, String field) {
        if (!node.isTextual() || node.asText().isBlank() || node.asText().length() > 128) {
            throw invalid(field, "must be a model name of 1..128 characters");
        }
        return node.asText();
    }

    /**
     * Chain-wide settings from {@code node}; {@code allowed} names the fields it may carry (a key's
     * defaults carry {@code models} too, read elsewhere).
     */
    static ChainSettings settings(JsonNode node, String field, Set<String> allowed) {
        if (!node.isObject()) {
            throw invalid(field, "must be an object");
        }
        node.fieldNames().forEachRemaining(name -> {
            if (!allowed.contains(name)) {
                throw invalid(field + "." + name, "is not a known field; known: " + allowed);
            }
        });
        Optional<Duration> timeout =
                millis(node, field, "timeout_ms").map(ms -> ChainLimits.timeout(ms, field + ".timeout_ms"));
        Optional<Duration> firstToken = millis(node, field, "first_token_timeout_ms")
                .map(ms -> ChainLimits.firstToken(ms, field + ".first_token_timeout_ms"));
        Optional<Duration> deadline =
                millis(node, field, "deadline_ms").map(ms -> ChainLimits.deadline(ms, field + ".deadline_ms"));
        Optional<Set<Trigger>> on =
                node.has("on") ? Optional.of(triggers(node.get("on"), field + ".on")) : Optional.empty();
        return new ChainSettings(
                timeout,
                firstToken,
                on,
                deadline,
                midStream(node, field),
                streamIdle(node, field),
                retries(node, field));
    }

    private static Optional<Duration> streamIdle(JsonNode node, String field) {
        return millis(node, field, "stream_idle_timeout_ms")
                .map(ms -> ChainLimits.streamIdle(ms, field + ".stream_idle_timeout_ms"));
    }

    private static Optional<Integer> retries(JsonNode node, String field) {
        JsonNode value = node.get("retries");
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw invalid(field + ".retries", "must be a whole number 0.." + ChainLimits.MAX_RETRIES);
        }
        return Optional.of(ChainLimits.retries(value.asLong(), field + ".retries"));
    }

    private static Optional<MidStream> midStream(JsonNode node, String field) {
        if (!node.has("mid_stream")) {
            return Optional.empty();
        }
        JsonNode value = node.get("mid_stream");
        return Optional.of(MidStream.fromWire(value.isTextual() ? value.asText() : "")
                .orElseThrow(() -> invalid(field + ".mid_stream", "must be \"lock\" or \"continue\"")));
    }

    private static Set<Trigger> triggers(JsonNode node, String field) {
        if (!node.isArray()) {
            throw invalid(field, "must be a list of " + Trigger.wireNames());
        }
        Set<Trigger> on = EnumSet.noneOf(Trigger.class);
        for (JsonNode item : node) {
            on.add(Trigger.fromWire(item.asText())
                    .filter(t -> item.isTextual())
                    .orElseThrow(() -> invalid(field, "names '" + item.asText() + "'; use " + Trigger.wireNames())));
        }
        return on;
    }

    private static Optional<Long> millis(JsonNode node, String field, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw invalid(field + "." + name, "must be a whole number of milliseconds");
        }
        return Optional.of(value.asLong());
    }

    static InvalidChainException invalid(String field, String what) {
        String leaf = field.replaceAll("\\[\\d+]", "");
        leaf = leaf.substring(leaf.lastIndexOf('.') + 1);
        return new InvalidChainException(field, "invalid_" + leaf, field + " " + what);
    }
}
