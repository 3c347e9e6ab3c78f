package io.idem.core.routing;

import io.idem.core.domain.JobSpec;
import io.idem.core.provider.ProviderSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The static eligibility rules of DESIGN §6: a candidate must be enabled, have its credential,
 * offer the model, and have the capabilities and jurisdiction the request needs. Breakers and
 * budgets change by the second and are checked when the call is about to go out. Pure and
 * thread-safe.
 */
public final class Eligibility {
    private final Routing routing;
    private final Function<String, String> environment;

    /** @param environment reads an environment variable (credentials are checked for presence only) */
    public Eligibility(Routing routing, Function<String, String> environment) {
        this.routing = routing;
        this.environment = environment;
    }

    /** Each of {@code providers}, in order, with why it cannot make {@code generation} (none: it can). */
    public List<CandidateCheck> check(
            List<String> providers, JobSpec.Generation generation, Optional<String> jurisdiction) {
        List<CandidateCheck> checks = new ArrayList<>(providers.size());
        for (String name : providers) {
            checks.add(new CandidateCheck(name, reasons(routing.providers().get(name), generation, jurisdiction)));
        }
        return checks;
    }

    private List<String> reasons(ProviderSettings p, JobSpec.Generation generation, Optional<String> jurisdiction) {
        String model = generation.model();
        List<String> reasons = new ArrayList<>();
        if (p == null) {
            reasons.add("unknown_provider");
            return reasons;
        }
        if (!p.enabled()) {
            reasons.add("disabled");
        }
        if (!keyed(p)) {
            reasons.add("missing_credential");
        }
        if (model != null && !p.offers(model)) {
            reasons.add("model_not_offered");
        }
        String capability = p.capabilities()
                .whyNot(model == null ? p.defaultModel() : model, generation, jurisdiction.orElse(null));
        if (capability != null) {
            reasons.add(capability);
        }
        return reasons;
    }

    /**
     * Why a caller from {@code jurisdiction} could use none of {@code provider}'s models whatever it
     * asked ({@code disabled}, {@code missing_credential}, {@code jurisdiction_mismatch}); empty:
     * it could use them.
     */
    public List<String> standing(String provider, Optional<String> jurisdiction) {
        ProviderSettings p = routing.providers().get(provider);
        if (p == null) {
            return List.of("unknown_provider");
        }
        List<String> reasons = new ArrayList<>();
        if (!p.enabled()) {
            reasons.add("disabled");
        }
        if (!keyed(p)) {
            reasons.add("missing_credential");
        }
        if (jurisdiction.isPresent() && !p.capabilities().jurisdictions().contains(jurisdiction.get())) {
            reasons.add("jurisdiction_mismatch");
        }
        return reasons;
    }

    private boolean keyed(ProviderSettings p) {
        if (p.apiKeyEnv().isEmpty()) {
            return true;
        }
        String value = environment.apply(p.apiKeyEnv().get());
        return value != null && !value.isBlank();
    }

    /** Whether every reason is a configuration matter (skipped in auto mode, an error when pinned). */
    public static boolean onlyConfiguration(CandidateCheck check) {
        return check.reasons().stream().allMatch(r -> r.equals("disabled") || r.equals("missing_credential"));
    }
}
