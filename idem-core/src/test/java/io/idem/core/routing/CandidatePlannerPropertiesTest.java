package io.idem.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.provider.ProviderSettings;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class CandidatePlannerPropertiesTest {
    private static final List<String> NAMES = List.of("a", "b", "c", "d", "e");
    private static final Routing ROUTING = routing();

    private static Routing routing() {
        Map<String, ProviderSettings> providers = new LinkedHashMap<>();
        for (String name : NAMES) {
            providers.put(
                    name,
                    new ProviderSettings(
                            name,
                            "fake",
                            URI.create("http://127.0.0.1:9"),
                            Optional.empty(),
                            "m-" + name,
                            Map.of("shared", "v"),
                            Duration.ofSeconds(1),
                            BigDecimal.ONE,
                            true));
        }
        return new Routing(
                providers,
                Map.of("fast", List.of("a", "b"), "standard", List.of("b", "c", "d"), "premium", List.of("e")),
                "standard");
    }

    @Provide
    Arbitrary<String> lanes() {
        return Arbitraries.of("fast", "standard", "premium", "nope");
    }

    @Provide
    Arbitrary<String> providers() {
        return Arbitraries.of("a", "b", "c", "d", "e", "zzz").injectNull(0.4);
    }

    @Provide
    Arbitrary<String> models() {
        return Arbitraries.of("shared", "m-a", "m-c", "m-e", "unknown").injectNull(0.4);
    }

    @Property
    void aPlanNeverLeavesItsLane(
            @ForAll("lanes") String lane,
            @ForAll("providers") String primary,
            @ForAll("providers") String backup,
            @ForAll("models") String model) {
        CandidatePlan plan = new CandidatePlanner(ROUTING).plan(lane, primary, backup, model);
        switch (plan) {
            case CandidatePlan.Planned planned -> {
                assertThat(ROUTING.lanes().get(lane)).containsAll(planned.candidates());
                assertThat(planned.candidates()).isNotEmpty().doesNotHaveDuplicates();
                if (model != null) {
                    assertThat(planned.candidates())
                            .allMatch(c -> ROUTING.providers().get(c).offers(model));
                }
            }
            case CandidatePlan.Refused refused ->
                assertThat(refused.code())
                        .isIn("unknown_lane", "unknown_provider", "provider_not_in_lane", "unknown_model");
        }
    }

    @Property
    void aPolicyOnlyPicksAndOrdersWithinTheLane(
            @ForAll("providers") String primary, @ForAll("providers") String backup) {
        CandidatePlan plan = new CandidatePlanner(ROUTING).plan("standard", primary, backup, null);
        if (plan instanceof CandidatePlan.Planned planned && primary != null) {
            assertThat(planned.candidates().getFirst()).isEqualTo(primary);
        }
    }
}
