package io.idem.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.routing.Routing;
import io.idem.providers.Vendors;
import io.idem.providers.fake.FakeVendor;
import io.idem.providers.vendor.VendorDescriptor;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
    /** Settings every provider takes; a vendor's own settings ({@code answers_file}) join them. */
    private static final List<String> COMMON_FIELDS = List.of(
            "adapter",
            "base_url",
            "api_key_env",
            "usage_key_env",
            ProviderFields.SECRET_KEY_ENV,
            "model",
            "models",
            "connect_timeout_ms",
            "cost_per_image_usd",
            "cost_per_second_usd",
            "enabled",
            "poll",
            "cancel",
            "capabilities",
            "daily_budget_usd",
            // the chat side, read by ChatRoutingReader
            "chat_models",
            "chat_expect_continue");

    private static final Set<String> PROVIDER_FIELDS = providerFields();

    private final Map<String, String> env;
    private final Duration expectContinueWait;

    /** @param expectContinueWait how long a POST waits for {@code 100 Continue} ({@code http.expect_continue_timeout_ms}) */
    RoutingReader(Map<String, String> env, Duration expectContinueWait) {
        this.env = env;
        this.expectContinueWait = expectContinueWait;
    }

    /** What was read; {@code demo} when no provider was configured and the demo runs instead. */
    record Result(Routing routing, Set<String> inProcessFakes, io.idem.core.chat.ChatRouting chat, boolean demo) {}

    Result read(JsonNode root) {
        JsonNode providersNode = root.get("providers");
        if (providersNode == null || providersNode.isNull() || providersNode.isEmpty()) {
            return demo(expectContinueWait);
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
            String where = "providers." + name;
            checkFields(where, p);
            VendorDescriptor vendor = ProviderFields.vendor(where, required(p, where, "adapter"));
            if (vendor.chatOnly()) {
                continue; // chat-only providers never serve jobs: ChatRoutingReader reads them
            }
            if (text(p, "base_url") == null && vendor.defaults().inProcess()) {
                inProcess.add(name);
            }
            providers.put(name, settings(name, vendor, p));
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
                    new ChatRoutingReader(env, expectContinueWait).read(root, providers),
                    false);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    private static Set<String> providerFields() {
        Set<String> fields = new LinkedHashSet<>(COMMON_FIELDS);
        Vendors.ALL.forEach(vendor -> fields.addAll(vendor.ownSettings()));
        return Set.copyOf(fields);
    }

    private static void checkFields(String where, JsonNode p) {
        if (!p.isObject()) {
            throw new ConfigException(where + " must be a mapping, was " + p);
        }
        for (Iterator<String> fields = p.fieldNames(); fields.hasNext(); ) {
            String field = fields.next();
            if (!PROVIDER_FIELDS.contains(field)) {
                throw new ConfigException(where + "." + field + " is not a known setting; known: " + PROVIDER_FIELDS);
            }
        }
    }

    /** The demo: two in-process fake vendors, priced as the fake vendor prices itself. */
    private static Result demo(Duration expectContinueWait) {
        Map<String, ProviderSettings> providers = new LinkedHashMap<>();
        for (String name : List.of("primary", "backup")) {
            providers.put(name, fake(name, expectContinueWait));
        }
        return new Result(Routing.singleLane(providers), Set.of("primary", "backup"), ChatRoutingReader.demo(), true);
    }

    private static ProviderSettings fake(String name, Duration expectContinueWait) {
        VendorDescriptor fake = FakeVendor.DESCRIPTOR;
        return new ProviderSettings(
                name,
                fake.name(),
                new ProviderSettings.Endpoint(
                        fake.defaults().baseUrl(),
                        fake.defaults().keyVariable(),
                        Duration.ofSeconds(2),
                        Optional.empty(),
                        new ProviderSettings.ExpectContinue(expectContinueWait, Optional.empty())),
                fake.defaults().model().orElseThrow(),
                Map.of(),
                new PricingModel.PerImageAndSecond(
                        new PricingModel.PerImage(new BigDecimal("0.04")),
                        new PricingModel.PerOutputSecond(new BigDecimal("0.05"))),
                true,
                Capabilities.ANY.withSimulate(fake.capabilities().simulate()),
                Optional.empty());
    }

    private ProviderSettings settings(String name, VendorDescriptor vendor, JsonNode p) {
        String where = "providers." + name;
        URI uri = ProviderFields.baseUrl(p, where, vendor, env);
        Map<String, String> models = models(p, where);
        String model = Optional.ofNullable(text(p, "model"))
                .or(() -> vendor.defaults().model())
                .orElseThrow(
                        () -> new ConfigException(where + ".model is required for adapter '" + vendor.name() + "'"));
        Duration connectTimeout = ProviderFields.connectTimeout(p, where);
        PricingModel pricing = pricing(p, where, vendor);
        boolean enabled = ProviderFields.flag(p, where, "enabled");
        Capabilities capabilities = CapabilitiesReader.read(
                p.get("capabilities"),
                where,
                ProviderFields.flag(p, where, "poll"),
                ProviderFields.flag(p, where, "cancel"),
                vendor.capabilities());
        Optional<BigDecimal> budget = ProviderFields.dailyBudget(p, where);
        try {
            return new ProviderSettings(
                    name,
                    vendor.name(),
                    new ProviderSettings.Endpoint(
                            uri,
                            ProviderFields.keyVariable(p, vendor),
                            connectTimeout,
                            Optional.ofNullable(text(p, "usage_key_env")),
                            ProviderFields.expectContinue(p, where, expectContinueWait),
                            ProviderFields.secretVariable(p, where, vendor)),
                    model,
                    models,
                    pricing,
                    enabled,
                    capabilities,
                    budget);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, String> models(JsonNode p, String where) {
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
        return models;
    }

    /**
     * {@code cost_per_image_usd} prices the provider per image, {@code cost_per_second_usd} per second
     * of video, both together a provider that makes both; without either, the vendor's own model.
     */
    private static PricingModel pricing(JsonNode p, String where, VendorDescriptor vendor) {
        Optional<PricingModel.PerImage> image = price(p, where, "cost_per_image_usd", PricingModel.PerImage::new);
        Optional<PricingModel.PerOutputSecond> second =
                price(p, where, "cost_per_second_usd", PricingModel.PerOutputSecond::new);
        if (image.isPresent() && second.isPresent()) {
            return new PricingModel.PerImageAndSecond(image.get(), second.get());
        }
        return image.<PricingModel>map(m -> m).or(() -> second.map(m -> m)).orElse(vendor.pricing());
    }

    private static <T extends PricingModel> Optional<T> price(
            JsonNode p, String where, String field, java.util.function.Function<BigDecimal, T> model) {
        JsonNode cost = p.get(field);
        if (cost == null) {
            return Optional.empty();
        }
        BigDecimal usd;
        try {
            usd = new BigDecimal(cost.asText());
        } catch (NumberFormatException e) {
            throw new ConfigException(where + "." + field + " must be a number, was " + cost);
        }
        try {
            return Optional.of(model.apply(usd));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + "." + field + ": " + e.getMessage(), e);
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
        Set<String> adult = new LinkedHashSet<>();
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

    private static String required(JsonNode p, String where, String field) {
        String value = text(p, field);
        if (value == null || value.isBlank()) {
            throw new ConfigException(where + "." + field + " is required");
        }
        return value;
    }

    private static String text(JsonNode p, String field) {
        return ProviderFields.text(p, field);
    }
}
