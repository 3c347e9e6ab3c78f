package io.idem.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.JobKind;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ModelCapabilities;
import io.idem.core.provider.VideoCapabilities;
import io.idem.providers.vendor.VendorCapabilities;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a provider's {@code capabilities}: kinds, sizes, n, jurisdictions, the clips it makes
 * ({@code video}) and what single models do differently ({@code models}). Kinds left out are the
 * kinds the vendor's adapter serves, so an image-only vendor is never routed a video (a vendor that
 * serves every kind declares none, as before). Clips left out are the clips the vendor's adapter can
 * make ({@code audio: false} for one that cannot ask for a soundtrack).
 */
final class CapabilitiesReader {
    private static final Set<String> FIELDS =
            Set.of("kinds", "sizes", "max_width", "max_height", "max_n", "jurisdictions", "video", "models");
    private static final Set<String> VIDEO_FIELDS =
            Set.of("durations", "max_duration_seconds", "resolutions", "aspect_ratios", "image_to_video", "audio");
    private static final Set<String> MODEL_FIELDS = Set.of("kinds", "video");

    private CapabilitiesReader() {}

    /** The provider's {@code capabilities}, its {@code poll} and {@code cancel}, its vendor's {@code simulate}. */
    static Capabilities read(JsonNode node, String where, boolean poll, boolean cancel, VendorCapabilities vendor) {
        if (node == null || node.isNull()) {
            var any = Capabilities.ANY;
            return new Capabilities(
                    vendor.kinds(),
                    any.sizes(),
                    0,
                    0,
                    any.maxN(),
                    any.jurisdictions(),
                    poll,
                    cancel,
                    vendor.simulate(),
                    new Capabilities.Media(vendor.video(), Map.of(), vendor.imageParameters()));
        }
        String here = where + ".capabilities";
        known(node, here, FIELDS);
        Set<JobKind> kinds = kinds(node.get("kinds"), here + ".kinds");
        try {
            return new Capabilities(
                    kinds.isEmpty() ? kinds(vendor) : kinds,
                    strings(node.get("sizes"), here + ".sizes"),
                    node.path("max_width").asInt(0),
                    node.path("max_height").asInt(0),
                    node.path("max_n").asInt(10),
                    strings(node.get("jurisdictions"), here + ".jurisdictions"),
                    poll,
                    cancel,
                    vendor.simulate(),
                    new Capabilities.Media(
                            video(node.get("video"), here + ".video", vendor.video())
                                    .orElse(vendor.video()),
                            models(node.get("models"), here + ".models", vendor.video()),
                            vendor.imageParameters()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(here + ": " + e.getMessage(), e);
        }
    }

    /** What a provider serves when its configuration names no kinds: its vendor's (none named: all). */
    private static Set<JobKind> kinds(VendorCapabilities vendor) {
        return vendor.kinds().containsAll(Arrays.asList(JobKind.values())) ? Set.of() : vendor.kinds();
    }

    private static Map<String, ModelCapabilities> models(JsonNode node, String where, VideoCapabilities vendor) {
        Map<String, ModelCapabilities> models = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return models;
        }
        if (!node.isObject()) {
            throw new ConfigException(where + " must map Idem model names to their capabilities, was " + node);
        }
        node.fields().forEachRemaining(entry -> {
            String here = where + "." + entry.getKey();
            known(entry.getValue(), here, MODEL_FIELDS);
            models.put(
                    entry.getKey(),
                    new ModelCapabilities(
                            kinds(entry.getValue().get("kinds"), here + ".kinds"),
                            video(entry.getValue().get("video"), here + ".video", vendor)));
        });
        return models;
    }

    /** A {@code video} block; a flag it leaves out is the vendor's ({@code vendor}). */
    private static Optional<VideoCapabilities> video(JsonNode node, String where, VideoCapabilities vendor) {
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        known(node, where, VIDEO_FIELDS);
        Set<Integer> durations = new LinkedHashSet<>();
        for (String text : strings(node.get("durations"), where + ".durations")) {
            try {
                durations.add(Integer.parseInt(text));
            } catch (NumberFormatException e) {
                throw new ConfigException(where + ".durations must list whole seconds, was '" + text + "'");
            }
        }
        try {
            return Optional.of(new VideoCapabilities(
                    durations,
                    node.path("max_duration_seconds").asInt(0),
                    strings(node.get("resolutions"), where + ".resolutions"),
                    strings(node.get("aspect_ratios"), where + ".aspect_ratios"),
                    node.has("image_to_video") ? flag(node, where, "image_to_video") : vendor.imageToVideo(),
                    node.has("audio") ? flag(node, where, "audio") : vendor.audio()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + ": " + e.getMessage(), e);
        }
    }

    private static boolean flag(JsonNode node, String where, String field) {
        return ProviderFields.flag(node, where, field);
    }

    private static void known(JsonNode node, String where, Set<String> fields) {
        if (!node.isObject()) {
            throw new ConfigException(where + " must be a mapping, was " + node);
        }
        node.fieldNames().forEachRemaining(field -> {
            if (!fields.contains(field)) {
                throw new ConfigException(where + "." + field + " is not a known setting; known: " + fields);
            }
        });
    }

    private static Set<JobKind> kinds(JsonNode node, String where) {
        var kinds = new LinkedHashSet<JobKind>();
        for (String name : strings(node, where)) {
            kinds.add(JobKind.parse(name)
                    .orElseThrow(() -> new ConfigException(
                            where + ": unknown kind '" + name + "'; known: " + Arrays.toString(JobKind.values()))));
        }
        return kinds;
    }

    private static Set<String> strings(JsonNode node, String where) {
        if (node == null || node.isNull()) {
            return Set.of();
        }
        if (!node.isArray()) {
            throw new ConfigException(where + " must be a list, was " + node);
        }
        Set<String> out = new LinkedHashSet<>();
        node.forEach(item -> out.add(item.asText()));
        return out;
    }
}
