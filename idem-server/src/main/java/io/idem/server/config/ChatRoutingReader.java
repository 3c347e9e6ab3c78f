package io.idem.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.chat.ChatModel;
import io.idem.core.chat.ChatRouting;
import io.idem.core.chat.UnconfirmedPolicy;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.providers.Vendors;
import io.idem.providers.chat.StaticVendor;
import io.idem.providers.fake.FakeVendorServer;
import io.idem.providers.vendor.VendorDescriptor;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads the chat side of {@code providers} and {@code lanes} (DESIGN §5): each provider's {@code
 * chat_models}, the chat-only providers (vendors whose descriptor has no job side, which job routing
 * never sees), a static provider's {@code answers_file}, and each lane's {@code
 * unconfirmed: failover | stop}. {@code chat_models} is a list of names (vendor id = name), or a
 * mapping of name → vendor id, or name → {@code {model, input_usd_per_1m, output_usd_per_1m}}. A chat
 * model name belongs to one provider.
 */
final class ChatRoutingReader {
    private static final Set<String> MODEL_FIELDS =
            Set.of("model", "input_usd_per_1m", "output_usd_per_1m", "prefill", "context_window");
    /** The demo's last tier, named after its adapter. */
    private static final String STATIC_TIER = StaticVendor.NAME;

    private final Map<String, String> env;
    private final Duration expectContinueWait;

    ChatRoutingReader(Map<String, String> env, Duration expectContinueWait) {
        this.env = env;
        this.expectContinueWait = expectContinueWait;
    }

    /** The demo: {@code fake-chat-a} on {@code primary}, {@code fake-chat-b} on {@code backup}, {@code static} last. */
    static ChatRouting demo() {
        Map<String, ChatModel> models = new LinkedHashMap<>();
        models.put("fake-chat-a", fakeModel("fake-chat-a", "primary"));
        models.put("fake-chat-b", fakeModel("fake-chat-b", "backup"));
        models.put(STATIC_TIER, new ChatModel(STATIC_TIER, STATIC_TIER, STATIC_TIER, BigDecimal.ZERO, BigDecimal.ZERO));
        VendorDescriptor vendor = StaticVendor.DESCRIPTOR;
        ProviderSettings staticTier = chatOnly(
                STATIC_TIER,
                vendor,
                new ProviderSettings.Endpoint(
                        vendor.defaults().baseUrl(), vendor.defaults().keyVariable(), Duration.ofMillis(2000)),
                true,
                Optional.empty());
        return new ChatRouting(models, Map.of(STATIC_TIER, staticTier), Map.of(), Map.of());
    }

    private static ChatModel fakeModel(String name, String provider) {
        // The fake vendor continues a trailing assistant message, as prefill-capable vendors do.
        return new ChatModel(
                name,
                provider,
                name,
                FakeVendorServer.CHAT_INPUT_USD_PER_1M,
                FakeVendorServer.CHAT_OUTPUT_USD_PER_1M,
                true);
    }

    ChatRouting read(JsonNode root, Map<String, ProviderSettings> jobProviders) {
        Map<String, ChatModel> models = new LinkedHashMap<>();
        Map<String, ProviderSettings> chatOnly = new LinkedHashMap<>();
        Map<String, String> answers = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.get("providers").fields(); it.hasNext(); ) {
            var entry = it.next();
            String name = entry.getKey();
            JsonNode p = entry.getValue();
            String where = "providers." + name;
            VendorDescriptor vendor =
                    ProviderFields.vendor(where, p.path("adapter").asText());
            if (!p.has("chat_models")) {
                if (vendor.chatOnly()) {
                    throw new ConfigException(where + ".chat_models is required for adapter '" + vendor.name() + "'");
                }
                continue;
            }
            if (vendor.chat().isEmpty()) {
                throw new ConfigException(where + ".chat_models: adapter '" + vendor.name()
                        + "' has no chat side; chat adapters: " + Vendors.chatNames());
            }
            if (vendor.chatOnly()) {
                chatOnly.put(name, chatOnlySettings(name, vendor, p));
            } else if (!jobProviders.containsKey(name)) {
                throw new ConfigException(where + " is not a configured provider");
            }
            if (p.has(StaticVendor.ANSWERS_FILE)) {
                answers.put(name, answersFile(where, vendor, p.get(StaticVendor.ANSWERS_FILE)));
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
        JsonNode prefill = prices == null ? null : prices.get("prefill");
        if (prefill != null && !prefill.isBoolean()) {
            throw new ConfigException(at + ".prefill must be true or false, was " + prefill);
        }
        try {
            return new ChatModel(
                    name,
                    provider,
                    vendorModel,
                    price(at, prices, "input_usd_per_1m"),
                    price(at, prices, "output_usd_per_1m"),
                    prefill != null && prefill.asBoolean(),
                    contextWindow(at, prices));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(at + ": " + e.getMessage(), e);
        }
    }

    /** {@code context_window}: the tokens the model takes, 1..100,000,000, when the operator names it. */
    private static OptionalLong contextWindow(String at, JsonNode settings) {
        JsonNode value = settings == null ? null : settings.get("context_window");
        if (value == null || value.isNull()) {
            return OptionalLong.empty();
        }
        if (!value.isIntegralNumber()
                || !value.canConvertToLong()
                || value.asLong() < 1
                || value.asLong() > 100_000_000) {
            throw new ConfigException(
                    at + ".context_window must be a whole number of tokens 1..100000000, was " + value);
        }
        return OptionalLong.of(value.asLong());
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

    private ProviderSettings chatOnlySettings(String name, VendorDescriptor vendor, JsonNode p) {
        String where = "providers." + name;
        return chatOnly(
                name,
                vendor,
                new ProviderSettings.Endpoint(
                        ProviderFields.baseUrl(p, where, vendor, env),
                        ProviderFields.keyVariable(p, vendor),
                        ProviderFields.connectTimeout(p, where),
                        Optional.empty(),
                        ProviderFields.expectContinue(p, where, expectContinueWait)),
                ProviderFields.flag(p, where, "enabled"),
                ProviderFields.dailyBudget(p, where));
    }

    private static ProviderSettings chatOnly(
            String name,
            VendorDescriptor vendor,
            ProviderSettings.Endpoint endpoint,
            boolean enabled,
            Optional<BigDecimal> budget) {
        try {
            return new ProviderSettings(
                    name,
                    vendor.name(),
                    endpoint,
                    "none",
                    Map.of(),
                    vendor.pricing(),
                    enabled,
                    Capabilities.ANY.withSimulate(vendor.capabilities().simulate()),
                    budget);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("providers." + name + ": " + e.getMessage(), e);
        }
    }

    private static String answersFile(String where, VendorDescriptor vendor, JsonNode node) {
        if (!vendor.ownSettings().contains(StaticVendor.ANSWERS_FILE)) {
            throw new ConfigException(where + ".answers_file is only for adapter " + takers(StaticVendor.ANSWERS_FILE));
        }
        if (!node.isTextual() || !Files.isReadable(Path.of(node.asText()))) {
            throw new ConfigException(where + ".answers_file must name a readable JSON or YAML file, was " + node);
        }
        return node.asText();
    }

    /** The vendors that read their own {@code setting}, quoted: {@code 'static'}. */
    private static String takers(String setting) {
        return Vendors.ALL.stream()
                .filter(vendor -> vendor.ownSettings().contains(setting))
                .map(vendor -> "'" + vendor.name() + "'")
                .collect(Collectors.joining(", "));
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
