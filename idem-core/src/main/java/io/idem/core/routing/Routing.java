package io.idem.core.routing;

import io.idem.core.provider.ProviderSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The providers and lanes Idem routes over. Immutable; validated at construction: every lane names
 * only configured providers, the default lane exists.
 */
public record Routing(
        Map<String, ProviderSettings> providers,
        Map<String, List<String>> lanes,
        String defaultLane,
        java.util.Set<String> adultLanes) {

    /** Routing without adult lanes. */
    public Routing(Map<String, ProviderSettings> providers, Map<String, List<String>> lanes, String defaultLane) {
        this(providers, lanes, defaultLane, java.util.Set.of());
    }

    public Routing {
        adultLanes = java.util.Set.copyOf(adultLanes);
        providers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(providers));
        Map<String, List<String>> copied = new LinkedHashMap<>();
        lanes.forEach((lane, members) -> copied.put(lane, List.copyOf(members)));
        lanes = java.util.Collections.unmodifiableMap(copied);
        Objects.requireNonNull(defaultLane, "defaultLane");
        if (providers.isEmpty()) {
            throw new IllegalArgumentException("at least one provider must be configured");
        }
        for (var lane : lanes.entrySet()) {
            if (lane.getValue().isEmpty()) {
                throw new IllegalArgumentException("lane '" + lane.getKey() + "' has no providers");
            }
            for (String member : lane.getValue()) {
                if (!providers.containsKey(member)) {
                    throw new IllegalArgumentException(
                            "lane '" + lane.getKey() + "' names unknown provider '" + member + "'");
                }
            }
        }
        for (String adult : adultLanes) {
            if (!lanes.containsKey(adult)) {
                throw new IllegalArgumentException("adult lane '" + adult + "' is not configured");
            }
        }
        if (adultLanes.contains(defaultLane)) {
            throw new IllegalArgumentException("the default lane must not be an adult lane");
        }
        if (!lanes.containsKey(defaultLane)) {
            throw new IllegalArgumentException("default lane '" + defaultLane + "' is not configured");
        }
    }

    /** A routing where every provider, in configuration order, forms the one lane {@code standard}. */
    public static Routing singleLane(Map<String, ProviderSettings> providers) {
        return new Routing(providers, Map.of("standard", new ArrayList<>(providers.keySet())), "standard");
    }
}
