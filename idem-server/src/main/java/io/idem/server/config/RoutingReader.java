package io.idem.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.routing.Routing;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code providers} and {@code lanes} (from idem.yaml or {@code PROVIDERS_JSON}). With no
 * providers at all: the demo, two in-process fake vendors {@code primary} and {@code backup} in lane
 * {@code standard}, with the chat models {@code fake-chat-a} and {@code fake-chat-b} on them and a
 * static tier (see {@link ChatRoutingReader}, which reads the chat side of the same settings).
 */
final class RoutingReader {
    private static final Set<String> PROVIDER_FIELDS = Set.of(
            "adapter",
            "base_url",
            "api_key_env",
            "model",
            "models",
            "connect_timeout_ms",
            "cost_per_image_usd",
            "enabled",
            "poll",
            "cancel",
            "capabilities",
            "daily_budget_usd",
            // the chat side, read by ChatRoutingReader
            "chat_models",
            "answers_file");
    private static final Map<String, String> DEFAULT_BASE_URLS = Map.of(
            "fake", "http://127.0.0.1:0",
            "fal", "https://queue.fal.run",
            "replicate", "https://api.replicate.com",
            "openai_images", "https://api.openai.com/v1",
            "runware", "https://api.runware.ai/v1");
    /** The environment variable each vendor's own tools read, used when api_key_env is not given. */
    private static final Map<String, String> DEFAULT_KEY_ENVS = Map.of(
            "fal", "FAL_KEY",
            "replicate", "REPLICATE_API_TOKEN",
            "openai_images", "OPENAI_API_KEY",
            "runware", "RUNWARE_API_KEY");

    private static final Map<String, String> DEFAULT_MODELS = Map.of(
            "fake", "fake-image-v1",
            "fal", "fal-ai/flux/schnell",
            "replicate", "black-forest-labs/flux-schnell",
            "openai_images", "gpt-image-1");

    private final Map<String, String> env;

    RoutingReader(Map<String, String> env) {
        this.env = env;
    }

    record Result(Routing routing, Set<String> inProcessFakes, io.idem.core.chat.ChatRouting chat) {}

    Result read(JsonNode root) {
        JsonNode providersNode = root.get("providers");
        if (providersNode == null || providersNode.isNull() || providersNode.isEmpty()) {
            return demo();
        }
        if (!providersNode.isObject()) {
            throw new ConfigException("providers must be a mapping of name to provider, was " + providersNode);
        }
        Map<String, ProviderSettings> providers = new LinkedHashMap<>();
        Set<String> inProcess = new HashSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = providersNode.fields(); it.hasNext(); ) {
            var entry = it.next();
            String name = entry.getKey();
            JsonNode p = entry.getValue();
            if (!p.isObject()) {
                throw new ConfigException("providers." + name + " must be a mapping, was " + p);
            }
            for (Iterator<String> fields = p.fieldNames(); fields.hasNext(); ) {
                String field = fields.next();
                if (!PROVIDER_FIELDS.contains(field)) {
                    throw new ConfigException(
                            "providers." + name + "." + field + " is not a known setting; known: " + PROVIDER_FIELDS);
                }
            }
            String adapter = required(p, name, "adapter");
            if (io.idem.providers.ChatAdapters.CHAT_ONLY.contains(adapter)) {
                continue; // chat-only providers never serve jobs: ChatRoutingReader reads them
            }
            if (!io.idem.providers.Adapters.KNOWN.contains(adapter)) {
                throw new ConfigException("providers." + name + ".adapter: unknown adapter '" + adapter + "'; known: "
                        + io.idem.providers.Adapters.KNOWN + " (chat only: "
                        + io.idem.providers.ChatAdapters.CHAT_ONLY + ")");
            }
            String baseUrl = text(p, "base_url");
            if (baseUrl == null && "fake".equals(adapter)) {
                inProcess.add(name);
            }
            if (baseUrl == null && "openai_images".equals(adapter) && env.get("OPENAI_BASE_URL") != null) {
                baseUrl = env.get("OPENAI_BASE_URL");
            }
            if (baseUrl == null) {
                baseUrl = DEFAULT_BASE_URLS.get(adapter);
            }
            if (baseUrl == null) {
                throw new ConfigException("providers." + name + ".base_url is required for adapter '" + adapter + "'");
            }
            providers.put(name, settings(name, adapter, baseUrl, p));
        }
        Map<String, List<String>> lanes = lanes(root.get("lanes"), providers);
        String defaultLane = root.hasNonNull("default_lane")
                ? root.get("default_lane").asText()
                : lanes.containsKey("standard")
                        ? "standard"
                        : lanes.keySet().iterator().next();
        try {
            return new Result(
                    new Routing(providers, lanes, defaultLane, adultLanes(root.get("lanes"))),
                    inProcess,
                    new ChatRoutingReader(env).read(root, providers));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    private static Result demo() {
        Map<String, ProviderSettings> providers = new LinkedHashMap<>();
        for (String name : List.of("primary", "backup")) {
            providers.put(name, fake(name));
        }
        return new Result(Routing.singleLane(providers), Set.of("primary", "backup"), ChatRoutingReader.demo());
    }

    private static ProviderSettings fake(String name) {
        return new ProviderSettings(
                name,
                "fake",
                URI.create(DEFAULT_BASE_URLS.get("fake")),
                Optional.empty(),
                DEFAULT_MODELS.get("fake"),
                Map.of(),
                Duration.ofSeconds(2),
                new BigDecimal("0.04"),
                true);
    }

    private static ProviderSettings settings(String name, String adapter, String baseUrl, JsonNode p) {
        String where = "providers." + name;
        URI uri;
        try {
            uri = URI.create(baseUrl);
            if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                throw new IllegalArgumentException("not an http(s) URL");
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    where + ".base_url must be an http(s) URL, was '" + IdemConfig.redactUrl(baseUrl) + "'");
        }
        Map<String, String> models = new LinkedHashMap<>();
        JsonNode modelsNode = p.get("models");
        if (modelsNode != null && !modelsNode.isNull()) {
            if (!modelsNode.isObject()) {
                throw new ConfigException(
                        where + ".models must map Idem model names to vendor model ids, was " + modelsNode);
            }
            modelsNode
                    .fields()
                    .forEachRemaining(m -> models.put(m.getKey(), m.getValue().asText()));
        }
        String model = text(p, "model");
        if (model == null) {
            model = DEFAULT_MODELS.get(adapter);
        }
        if (model == null) {
            throw new ConfigException(where + ".model is required for adapter '" + adapter + "'");
        }
        long connectMs =
                p.has("connect_timeout_ms") ? p.get("connect_timeout_ms").asLong(-1) : 2000;
        if (connectMs < 1 || connectMs > 60_000) {
            throw new ConfigException(
                    where + ".connect_timeout_ms must be 1..60000, was " + p.get("connect_timeout_ms"));
        }
        BigDecimal cost;
        try {
            cost = p.has("cost_per_image_usd")
                    ? new BigDecimal(p.get("cost_per_image_usd").asText())
                    : BigDecimal.ZERO;
        } catch (NumberFormatException e) {
            throw new ConfigException(
                    where + ".cost_per_image_usd must be a number, was " + p.get("cost_per_image_usd"));
        }
        boolean enabled = flag(p, where, "enabled");
        boolean poll = flag(p, where, "poll");
        boolean cancel = flag(p, where, "cancel");
        try {
            return new ProviderSettings(
                    name,
                    adapter,
                    uri,
                    Optional.ofNullable(text(p, "api_key_env"))
                            .or(() -> Optional.ofNullable(DEFAULT_KEY_ENVS.get(adapter))),
                    model,
                    models,
                    Duration.ofMillis(connectMs),
                    new PricingModel.PerImage(cost),
                    enabled,
                    capabilities(p.get("capabilities"), where, poll, cancel),
                    budget(p, where));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, List<String>> lanes(JsonNode node, Map<String, ProviderSettings> providers) {
        Map<String, List<String>> lanes = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            lanes.put("standard", new ArrayList<>(providers.keySet()));
            return lanes;
        }
        if (!node.isObject()) {
            throw new ConfigException("lanes must map lane names to provider lists, was " + node);
        }
        node.fields().forEachRemaining(lane -> {
            JsonNode value = lane.getValue();
            JsonNode list = value.isObject() ? value.get("providers") : value;
            if (list == null || !list.isArray()) {
                throw new ConfigException("lanes." + lane.getKey()
                        + " must be a list of provider names, or {providers: [...], adult: true}, was " + value);
            }
            List<String> members = new ArrayList<>();
            list.forEach(member -> members.add(member.asText()));
            lanes.put(lane.getKey(), members);
        });
        return lanes;
    }

    /** Lanes declared {@code adult: true}: closed unless the key is approved and output is moderated. */
    private static Set<String> adultLanes(JsonNode node) {
        Set<String> adult = new java.util.LinkedHashSet<>();
        if (node != null && node.isObject()) {
            node.fields().forEachRemaining(lane -> {
                JsonNode value = lane.getValue();
                if (value.isObject()) {
                    value.fieldNames().forEachRemaining(field -> {
                        if (!field.equals("providers") && !field.equals("adult") && !field.equals("unconfirmed")) {
                            throw new ConfigException("lanes." + lane.getKey() + "." + field
                                    + " is not a known setting; known: [providers, adult, unconfirmed]");
                        }
                    });
                    if (value.path("adult").asBoolean(false)) {
                        adult.add(lane.getKey());
                    }
                }
            });
        }
        return adult;
    }

    private static final Set<String> CAPABILITY_FIELDS =
            Set.of("kinds", "sizes", "max_width", "max_height", "max_n", "jurisdictions");

    private static io.idem.core.provider.Capabilities capabilities(
            JsonNode node, String where, boolean poll, boolean cancel) {
        if (node == null || node.isNull()) {
            var any = io.idem.core.provider.Capabilities.ANY;
            return new io.idem.core.provider.Capabilities(
                    any.kinds(), any.sizes(), 0, 0, any.maxN(), any.jurisdictions(), poll, cancel);
        }
        if (!node.isObject()) {
            throw new ConfigException(where + ".capabilities must be a mapping, was " + node);
        }
        node.fieldNames().forEachRemaining(field -> {
            if (!CAPABILITY_FIELDS.contains(field)) {
                throw new ConfigException(
                        where + ".capabilities." + field + " is not a known setting; known: " + CAPABILITY_FIELDS);
            }
        });
        try {
            return new io.idem.core.provider.Capabilities(
                    strings(node.get("kinds"), where + ".capabilities.kinds"),
                    strings(node.get("sizes"), where + ".capabilities.sizes"),
                    node.path("max_width").asInt(0),
                    node.path("max_height").asInt(0),
                    node.path("max_n").asInt(10),
                    strings(node.get("jurisdictions"), where + ".capabilities.jurisdictions"),
                    poll,
                    cancel);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + ".capabilities: " + e.getMessage(), e);
        }
    }

    private static Set<String> strings(JsonNode node, String where) {
        if (node == null || node.isNull()) {
            return Set.of();
        }
        if (!node.isArray()) {
            throw new ConfigException(where + " must be a list, was " + node);
        }
        Set<String> out = new java.util.LinkedHashSet<>();
        node.forEach(item -> out.add(item.asText()));
        return out;
    }

    private static Optional<BigDecimal> budget(JsonNode p, String where) {
        JsonNode node = p.get("daily_budget_usd");
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        try {
            BigDecimal value = new BigDecimal(node.asText());
            if (value.signum() <= 0) {
                throw new NumberFormatException();
            }
            return Optional.of(value);
        } catch (NumberFormatException e) {
            throw new ConfigException(where + ".daily_budget_usd must be a positive number, was " + node);
        }
    }

    private static boolean flag(JsonNode p, String where, String field) {
        JsonNode value = p.get(field);
        if (value == null || value.isNull()) {
            return true;
        }
        if (!value.isBoolean()) {
            throw new ConfigException(where + "." + field + " must be true or false, was " + value);
        }
        return value.asBoolean();
    }

    private static String required(JsonNode p, String name, String field) {
        String value = text(p, field);
        if (value == null || value.isBlank()) {
            throw new ConfigException("providers." + name + "." + field + " is required");
        }
        return value;
    }

    private static String text(JsonNode p, String field) {
        JsonNode value = p.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
