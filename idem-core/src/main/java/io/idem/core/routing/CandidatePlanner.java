package io.idem.core.routing;

import io.idem.core.provider.ProviderSettings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Resolves which providers a job may use, in order (DESIGN §6). The lane fixes the candidates; a
 * {@code provider_policy} may only pick and order within it. Pure and thread-safe.
 */
public final class CandidatePlanner {
    private final Routing routing;

    public CandidatePlanner(Routing routing) {
        this.routing = routing;
    }

    /**
     * @param lane the requested lane, or {@code null} for the default
     * @param primary the policy's primary provider, or {@code null}
     * @param backup the policy's backup provider, or {@code null}
     * @param model the Idem model name, or {@code null} for each provider's default
     */
    public CandidatePlan plan(String lane, String primary, String backup, String model) {
        String laneName = lane == null ? routing.defaultLane() : lane;
        List<String> members = routing.lanes().get(laneName);
        if (members == null) {
            return new CandidatePlan.Refused(
                    "unknown_lane",
                    "lane '" + laneName + "' is not configured; known: "
                            + routing.lanes().keySet());
        }
        List<String> ordered;
        boolean pinned;
        if (primary == null && backup == null) {
            ordered = members;
            pinned = false;
        } else {
            Set<String> picked = new LinkedHashSet<>();
            for (String name : new String[] {primary, backup}) {
                if (name == null) {
                    continue;
                }
                if (!routing.providers().containsKey(name)) {
                    return new CandidatePlan.Refused("unknown_provider", "provider '" + name + "' is not configured");
                }
                if (!members.contains(name)) {
                    return new CandidatePlan.Refused(
                            "provider_not_in_lane", "provider '" + name + "' is not in lane '" + laneName + "'");
                }
                picked.add(name);
            }
            ordered = new ArrayList<>(picked);
            pinned = picked.size() == 1;
        }
        if (model == null) {
            return new CandidatePlan.Planned(laneName, ordered, pinned);
        }
        List<String> offering = new ArrayList<>();
        for (String name : ordered) {
            ProviderSettings provider = routing.providers().get(name);
            if (provider.offers(model)) {
                offering.add(name);
            }
        }
        if (offering.isEmpty()) {
            return new CandidatePlan.Refused(
                    "unknown_model", "model '" + model + "' is not offered by any provider of lane '" + laneName + "'");
        }
        return new CandidatePlan.Planned(laneName, offering, pinned);
    }
}
