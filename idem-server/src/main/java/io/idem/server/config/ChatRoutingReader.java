package io.idem.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.chat.ChatModel;
import io.idem.core.chat.ChatRouting;
import io.idem.core.chat.UnconfirmedPolicy;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.providers.ChatAdapters;
import io.idem.providers.chat.OllamaChatAdapter;
import io.idem.providers.chat.OpenAiChatAdapter;
import io.idem.providers.fake.FakeVendorServer;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the chat side of {@code providers} and {@code lanes} (DESIGN §5): each provider's {@code
 * chat_models}, the chat-only providers ({@code openai_chat}, {@code ollama}, {@code static}, which
 * job routing never sees), a static provider's {@code answers_file}, and each lane's {@code
 * unconfirmed: failover | stop}. {@code chat_models} is a list of names (vendor id = name), or a
 * mapping of name → vendor id, or name → {@code {model, input_usd_per_1m, output_usd_per_1m}}. A chat
 * model name belongs to one provider.
 */
final class ChatRoutingReader {
    private static final Set<String> MODEL_FIELDS = Set.of("model", "input_usd_per_1m", "output_usd_per_1m");
    private static final Map<String, String> DEFAULT_KEY_ENVS = Map.of("openai_chat", "OPENAI_API_KEY");

    private final Map<String, String> env;

    ChatRoutingReader(Map<String, String> env) {
        this.env = env;
    }

    /** The demo: {@code fake-chat-a} on {@code primary}, {@code fake-chat-b} on {@code backup}, {@code static} last. */
    static ChatRouting demo() {
        Map<String, ChatModel> models = new LinkedHashMap<>();
        models.put("fake-chat-a", fakeModel("fake-chat-a", "primary"));
        models.put("fake-chat-b", fakeModel("fake-chat-b", "backup"));
        models.put("static", new ChatModel("static", "static", "static", BigDecimal.ZERO, BigDecimal.ZERO));
        ProviderSettings staticTier = chatOnly(
                "static", "static", URI.create("http://127.0.0.1:0"), Optional.empty(), 2000, true, Optional.empty());
        return new ChatRouting(models, Map.of("static", staticTier), Map.of(), Map.of());
    }

    private static ChatModel fakeModel(String name, String provider) {
        return new ChatModel(
                name, provider, name, FakeVendorServer.CHAT_INPUT_USD_PER_1M, FakeVendorServer.CHAT_OUTPUT_USD_PER_1M);
    }

    ChatRouting read(JsonNode root, Map<String, ProviderSettings> jobProviders) {
        Map<String, ChatModel> models = new LinkedHashMap<>();
        Map<String, ProviderSettings> chatOnly = new LinkedHashMap<>();
        Map<String, String> answers = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.get("providers").fields(); it.hasNext(); ) {
            var entry = it.next();
            String name = entry.getKey();
            JsonNode p = entry.getValue();
            String adapter = p.path("adapter").asText();
            String where = "providers." + name;
            boolean chatOnlyAdapter = ChatAdapters.CHAT_ONLY.contains(adapter);
            if (!p.has("chat_models")) {
                if (chatOnlyAdapter) {
                    throw new ConfigException(where + ".chat_models is required for adapter '" + adapter + "'");
                }
                continue;
            }
            if (!ChatAdapters.KNOWN.contains(adapter)) {
                throw new ConfigException(where + ".chat_models: adapter '" + adapter
                        + "' has no chat side; chat adapters: " + ChatAdapters.KNOWN);
            }
            if (chatOnlyAdapter) {
                chatOnly.put(name, chatOnlySettings(name, adapter, p));
            } else if (!jobProviders.containsKey(name)) {
                throw new ConfigException(where + " is not a configured provider");
            }
            if (p.has("answers_file")) {
                answers.put(name, answersFile(where, adapter, p.get("answers_file")));
            }
            readModels(where, name, p.get("chat_models")).forEach((model, chat) -> {
                ChatModel earlier = models.putIfAbsent(model, chat);
                if (earlier != null) {
                    throw new ConfigException(where + ".chat_models." + model + ": chat model '" + model
                            + "' is already served by provider '" + earlier.provider() + "'");
                }
            });
        }
        return new ChatRouting(models, chatOnly, answers, unconfirmed(root.get("lanes")));
    }

    private Map<String, ChatModel> readModels(String where, String provider, JsonNode node) {
        Map<String, ChatModel> models = new LinkedHashMap<>();
        if (node.isArray() && !node.isEmpty()) {
            node.forEach(item -> {
                if (!item.isTextual() || item.asText().isBlank()) {
                    throw new ConfigException(where + ".chat_models must list model names, was " + node);
                }
                models.put(item.asText(), model(where, item.asText(), provider, item.asText(), null));
            });
            return models;
        }
        if (!node.isObject() || node.isEmpty()) {
            throw new ConfigException(where + ".chat_models must be a list of model names or a mapping of name to "
                    + "vendor model, was " + node);
        }
        node.fields().forEachRemaining(m -> {
            JsonNode value = m.getValue();
            if (value.isTextual()) {
                models.put(m.getKey(), model(where, m.getKey(), provider, value.asText(), null));
            } else if (value.isObject()) {
                value.fieldNames().forEachRemaining(field -> {
                    if (!MODEL_FIELDS.contains(field)) {
                        throw new ConfigException(where + ".chat_models." + m.getKey() + "." + field
                                + " is not a known setting; known: " + MODEL_FIELDS);
                    }
                });
                models.put(
                        m.getKey(),
                        model(where, m.getKey(), provider, value.path("model").asText(m.getKey()), value));
            } else {
                throw new ConfigException(where + ".chat_models." + m.getKey()
                        + " must be a vendor model id or {model, input_usd_per_1m, output_usd_per_1m}, was " + value);
            }
        });
        return models;
    }

    private static ChatModel model(String where, String name, String provider, String vendorModel, JsonNode prices) {
        String at = where + ".chat_models." + name;
        try {
            return new ChatModel(
                    name,
                    provider,
                    vendorModel,
                    price(at, prices, "input_usd_per_1m"),
                    price(at, prices, "output_usd_per_1m"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(at + ": " + e.getMessage(), e);
        }
    }

    private static BigDecimal price(String at, JsonNode prices, String field) {
        if (prices == null || !prices.has(field)) {
            return BigDecimal.ZERO;
        }
        try {
            BigDecimal value = new BigDecimal(prices.get(field).asText());
            if (value.signum() < 0) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new ConfigException(at + "." + field + " must be a non-negative number, was " + prices.get(field));
        }
    }

    private ProviderSettings chatOnlySettings(String name, String adapter, JsonNode p) {
        String where = "providers." + name;
        String baseUrl = p.hasNonNull("base_url") ? p.get("base_url").asText() : defaultBaseUrl(adapter);
        URI uri;
        try {
            uri = URI.create(baseUrl);
            if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                throw new IllegalArgumentException();
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    where + ".base_url must be an http(s) URL, was '" + IdemConfig.redactUrl(baseUrl) + "'");
        }
        long connectMs =
                p.has("connect_timeout_ms") ? p.get("connect_timeout_ms").asLong(-1) : 2000;
        if (connectMs < 1 || connectMs > 60_000) {
            throw new ConfigException(
                    where + ".connect_timeout_ms must be 1..60000, was " + p.get("connect_timeout_ms"));
        }
        JsonNode enabled = p.get("enabled");
        if (enabled != null && !enabled.isNull() && !enabled.isBoolean()) {
            throw new ConfigException(where + ".enabled must be true or false, was " + enabled);
        }
        Optional<BigDecimal> budget = Optional.empty();
        if (p.hasNonNull("daily_budget_usd")) {
            try {
                budget = Optional.of(new BigDecimal(p.get("daily_budget_usd").asText()))
                        .filter(b -> b.signum() > 0);
            } catch (NumberFormatException e) {
                budget = Optional.empty();
            }
            if (budget.isEmpty()) {
                throw new ConfigException(
                        where + ".daily_budget_usd must be a positive number, was " + p.get("daily_budget_usd"));
            }
        }
        Optional<String> keyEnv = Optional.ofNullable(
                        p.hasNonNull("api_key_env") ? p.get("api_key_env").asText() : null)
                .or(() -> Optional.ofNullable(DEFAULT_KEY_ENVS.get(adapter)));
        return chatOnly(
                name,
                adapter,
                uri,
                keyEnv,
                connectMs,
                enabled == null || enabled.isNull() || enabled.asBoolean(),
                budget);
    }

    private String defaultBaseUrl(String adapter) {
        return switch (adapter) {
            case "openai_chat" ->
                Optional.ofNullable(env.get("OPENAI_BASE_URL")).orElse(OpenAiChatAdapter.DEFAULT_BASE_URL.toString());
            case "ollama" -> OllamaChatAdapter.DEFAULT_BASE_URL.toString();
            default -> "http://127.0.0.1:0";
        };
    }

    private static ProviderSettings chatOnly(
            String name,
            String adapter,
            URI baseUrl,
            Optional<String> keyEnv,
            long connectMs,
            boolean enabled,
            Optional<BigDecimal> budget) {
        try {
            return new ProviderSettings(
                    name,
                    adapter,
                    baseUrl,
                    keyEnv,
                    "none",
                    Map.of(),
                    Duration.ofMillis(connectMs),
                    PricingModel.PerImage.FREE,
                    enabled,
                    Capabilities.ANY,
                    budget);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("providers." + name + ": " + e.getMessage(), e);
        }
    }

    private static String answersFile(String where, String adapter, JsonNode node) {
        if (!"static".equals(adapter)) {
            throw new ConfigException(where + ".answers_file is only for adapter 'static'");
        }
        if (!node.isTextual() || !Files.isReadable(Path.of(node.asText()))) {
            throw new ConfigException(where + ".answers_file must name a readable JSON or YAML file, was " + node);
        }
        return node.asText();
    }

    private static Map<String, UnconfirmedPolicy> unconfirmed(JsonNode lanes) {
        Map<String, UnconfirmedPolicy> policies = new LinkedHashMap<>();
        if (lanes == null || !lanes.isObject()) {
            return policies;
        }
        lanes.fields().forEachRemaining(lane -> {
            JsonNode value = lane.getValue().path("unconfirmed");
            if (!value.isMissingNode()) {
                policies.put(
                        lane.getKey(),
                        UnconfirmedPolicy.fromWire(value.asText())
                                .orElseThrow(() -> new ConfigException("lanes." + lane.getKey()
                                        + ".unconfirmed must be failover or stop, was " + value)));
            }
        });
        return policies;
    }
}
