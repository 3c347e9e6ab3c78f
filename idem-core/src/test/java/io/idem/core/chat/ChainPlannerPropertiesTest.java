package io.idem.core.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Whatever a request and a key's defaults say, a planned chain keeps the chain's invariants. */
class ChainPlannerPropertiesTest {

    @Provide
    Arbitrary<List<String>> names() {
        return Arbitraries.of("a", "b", "c", "d").list().ofMinSize(1).ofMaxSize(6);
    }

    @Provide
    Arbitrary<List<String>> defaultNames() {
        return Arbitraries.of("a", "b", "c", "d")
                .list()
                .uniqueElements()
                .ofMinSize(1)
                .ofMaxSize(3);
    }

    @Provide
    Arbitrary<String> model() {
        return Arbitraries.of("a", "b", "c", "d", "e");
    }

    private static List<ChainEntry> entries(List<String> names) {
        return names.stream().map(ChainEntry::of).toList();
    }

    @Property
    void aChainFromModelsIsTheirDistinctOrderOrARefusal(@ForAll("names") List<String> names) {
        List<String> distinct = new ArrayList<>(new LinkedHashSet<>(names));
        ChainAsk ask =
                new ChainAsk(Optional.empty(), Optional.of(entries(names)), Optional.empty(), ChainSettings.NONE);
        try {
            Chain chain = ChainPlanner.plan(ask, Optional.empty());
            assertThat(chain.models()).isEqualTo(distinct);
            assertThat(chain.requestedModel()).isEqualTo(names.getFirst());
        } catch (InvalidChainException e) {
            assertThat(distinct).hasSizeGreaterThan(ChainLimits.MAX_MODELS);
            assertThat(e.field()).isEqualTo("models");
        }
    }

    @Property
    void aChainFromKeyDefaultsIsNeverRefusedAndStartsWithTheModel(
            @ForAll("model") String model, @ForAll("defaultNames") List<String> defaults) {
        Chain chain = ChainPlanner.plan(
                ChainAsk.single(model), Optional.of(new FailoverDefaults(entries(defaults), ChainSettings.NONE)));
        assertThat(chain.models().getFirst()).isEqualTo(model);
        assertThat(chain.models()).hasSizeBetween(1, ChainLimits.MAX_MODELS).doesNotHaveDuplicates();
        assertThat(defaults)
                .containsAll(chain.models().subList(1, chain.models().size()));
        if (defaults.contains(model)) {
            assertThat(chain.models()).isEqualTo(defaults.subList(defaults.indexOf(model), defaults.size()));
        } else if (defaults.size() > 1) {
            assertThat(chain.models()).endsWith(defaults.getLast()).doesNotContain(defaults.getFirst());
        }
    }

    @Property
    void everyLinkHasTimeoutsWithinTheLimitsAndTheDeadlineCoversOneAttempt(
            @ForAll("model") String model, @ForAll("defaultNames") List<String> fallbacks) {
        ChainAsk ask =
                new ChainAsk(Optional.of(model), Optional.empty(), Optional.of(entries(fallbacks)), ChainSettings.NONE);
        try {
            Chain chain = ChainPlanner.plan(ask, Optional.empty());
            for (Chain.Link link : chain.links()) {
                assertThat(link.timeout()).isBetween(ChainLimits.MIN_TIMEOUT, ChainLimits.MAX_TIMEOUT);
                assertThat(link.firstTokenTimeout())
                        .isBetween(ChainLimits.MIN_FIRST_TOKEN, ChainLimits.MAX_FIRST_TOKEN);
                assertThat(chain.deadline()).isGreaterThanOrEqualTo(link.timeout());
            }
        } catch (InvalidChainException e) {
            assertThat(e.field()).isEqualTo("fallback_models");
        }
    }
}
