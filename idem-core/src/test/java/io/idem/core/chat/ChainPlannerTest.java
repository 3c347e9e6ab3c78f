package io.idem.core.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChainPlannerTest {
    private static final ChainSettings NONE = ChainSettings.NONE;

    private static ChainAsk models(String... names) {
        return new ChainAsk(
                Optional.empty(),
                Optional.of(List.of(names).stream().map(ChainEntry::of).toList()),
                Optional.empty(),
                NONE);
    }

    private static ChainAsk withFallbacks(String model, String... fallbacks) {
        return new ChainAsk(
                Optional.of(model),
                Optional.empty(),
                Optional.of(List.of(fallbacks).stream().map(ChainEntry::of).toList()),
                NONE);
    }

    private static Optional<FailoverDefaults> defaults(String... names) {
        return Optional.of(
                new FailoverDefaults(List.of(names).stream().map(ChainEntry::of).toList(), NONE));
    }

    @Test
    void modelsListIsTheChainInOrder() {
        Chain chain = ChainPlanner.plan(models("a", "b", "c"), Optional.empty());
        assertThat(chain.models()).containsExactly("a", "b", "c");
        assertThat(chain.requestedModel()).isEqualTo("a");
        assertThat(chain.multiModel()).isTrue();
    }

    @Test
    void modelPlusFallbackModelsPutsTheModelFirst() {
        assertThat(ChainPlanner.plan(withFallbacks("b", "a", "c"), Optional.empty())
                        .models())
                .containsExactly("b", "a", "c");
    }

    @Test
    void modelsWinOverTheKeysDefaults() {
        assertThat(ChainPlanner.plan(models("c"), defaults("a", "b")).models()).containsExactly("c");
    }

    @Test
    void fallbackModelsWinOverTheKeysDefaults() {
        assertThat(ChainPlanner.plan(withFallbacks("c", "a"), defaults("a", "b"))
                        .models())
                .containsExactly("c", "a");
    }

    @Test
    void keyDefaultsApplyWhenTheRequestNamesNoChain() {
        assertThat(ChainPlanner.plan(
                                new ChainAsk(Optional.empty(), Optional.empty(), Optional.empty(), NONE),
                                defaults("a", "b", "c"))
                        .models())
                .containsExactly("a", "b", "c");
    }

    @Test
    void aModelInTheDefaultsStartsTheChainAtItsPosition() {
        assertThat(ChainPlanner.plan(ChainAsk.single("b"), defaults("a", "b", "c"))
                        .models())
                .containsExactly("b", "c");
    }

    @Test
    void aModelOutsideTheDefaultsReplacesTheFirstDefaultAndKeepsTheLastTier() {
        assertThat(ChainPlanner.plan(ChainAsk.single("z"), defaults("a", "b", "static"))
                        .models())
                .containsExactly("z", "b", "static");
        assertThat(ChainPlanner.plan(ChainAsk.single("z"), defaults("a")).models())
                .containsExactly("z");
    }

    @Test
    void aSingleModelWithoutDefaultsIsASingleModelChain() {
        Chain chain = ChainPlanner.plan(ChainAsk.single("a"), Optional.empty());
        assertThat(chain.models()).containsExactly("a");
        assertThat(chain.multiModel()).isFalse();
    }

    @Test
    void duplicatesCollapseToTheirFirstOccurrence() {
        assertThat(ChainPlanner.plan(models("a", "b", "a", "b", "c"), Optional.empty())
                        .models())
                .containsExactly("a", "b", "c");
        assertThat(ChainPlanner.plan(withFallbacks("a", "a", "b"), Optional.empty())
                        .models())
                .containsExactly("a", "b");
    }

    @Test
    void moreThanThreeDistinctModelsIsRefusedNamingTheField() {
        assertThatThrownBy(() -> ChainPlanner.plan(models("a", "b", "c", "d"), Optional.empty()))
                .isInstanceOfSatisfying(
                        InvalidChainException.class, e -> assertThat(e.field()).isEqualTo("models"));
        assertThatThrownBy(() -> ChainPlanner.plan(withFallbacks("a", "b", "c", "d"), Optional.empty()))
                .isInstanceOfSatisfying(
                        InvalidChainException.class, e -> assertThat(e.field()).isEqualTo("fallback_models"));
    }

    @Test
    void modelsWithFallbackModelsIsRefused() {
        ChainAsk both = new ChainAsk(
                Optional.of("a"),
                Optional.of(List.of(ChainEntry.of("a"))),
                Optional.of(List.of(ChainEntry.of("b"))),
                NONE);
        assertThatThrownBy(() -> ChainPlanner.plan(both, Optional.empty()))
                .isInstanceOfSatisfying(
                        InvalidChainException.class, e -> assertThat(e.code()).isEqualTo("conflicting_chain_fields"));
    }

    @Test
    void noModelAtAllIsRefused() {
        assertThatThrownBy(() -> ChainPlanner.plan(
                        new ChainAsk(Optional.empty(), Optional.empty(), Optional.empty(), NONE), Optional.empty()))
                .isInstanceOfSatisfying(
                        InvalidChainException.class, e -> assertThat(e.field()).isEqualTo("model"));
    }

    @Test
    void anEntrysTimeoutsWinOverTheChainsWhichWinOverTheKeysWhichWinOverTheDefaults() {
        ChainSettings request = new ChainSettings(
                Optional.of(Duration.ofSeconds(5)),
                Optional.empty(),
                Optional.of(Set.of(Trigger.TIMEOUT)),
                Optional.empty());
        ChainSettings key = new ChainSettings(
                Optional.of(Duration.ofSeconds(9)),
                Optional.of(Duration.ofSeconds(3)),
                Optional.of(Set.of(Trigger.RATE_LIMIT)),
                Optional.empty());
        ChainAsk ask = new ChainAsk(
                Optional.empty(),
                Optional.of(List.of(
                        new ChainEntry("a", Optional.of(Duration.ofSeconds(2)), Optional.of(Duration.ofMillis(700))),
                        ChainEntry.of("b"))),
                Optional.empty(),
                request);
        Chain chain = ChainPlanner.plan(ask, Optional.of(new FailoverDefaults(List.of(ChainEntry.of("x")), key)));
        assertThat(chain.links().get(0).timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(chain.links().get(0).firstTokenTimeout()).isEqualTo(Duration.ofMillis(700));
        assertThat(chain.links().get(1).timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(chain.links().get(1).firstTokenTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(chain.on()).containsExactly(Trigger.TIMEOUT);

        Chain plain = ChainPlanner.plan(models("a"), Optional.empty());
        assertThat(plain.links().getFirst().timeout()).isEqualTo(ChainLimits.DEFAULT_TIMEOUT);
        assertThat(plain.on()).isEqualTo(EnumSet.allOf(Trigger.class));
        assertThat(plain.deadline()).isEqualTo(ChainLimits.DEFAULT_DEADLINE);
    }

    @Test
    void retriesAndTheStreamIdleTimeoutResolveEntryThenChainThenKeyThenDefault() {
        ChainSettings request = new ChainSettings(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.of(Duration.ofSeconds(4)),
                Optional.empty());
        ChainSettings key = new ChainSettings(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.of(Duration.ofSeconds(8)),
                Optional.of(3));
        ChainAsk ask = new ChainAsk(
                Optional.empty(),
                Optional.of(List.of(
                        new ChainEntry(
                                "a",
                                Optional.empty(),
                                Optional.empty(),
                                Optional.of(Duration.ofSeconds(2)),
                                Optional.of(0)),
                        ChainEntry.of("b"))),
                Optional.empty(),
                request);
        Chain chain = ChainPlanner.plan(ask, Optional.of(new FailoverDefaults(List.of(ChainEntry.of("x")), key)));
        assertThat(chain.links().get(0).streamIdleTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(chain.links().get(0).retries()).isZero();
        assertThat(chain.links().get(1).streamIdleTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(chain.links().get(1).retries()).isEqualTo(3);

        Chain plain = ChainPlanner.plan(models("a"), Optional.empty());
        assertThat(plain.links().getFirst().retries())
                .isEqualTo(ChainLimits.DEFAULT_RETRIES)
                .isEqualTo(1);
        assertThat(plain.links().getFirst().streamIdleTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(plain.links().getFirst().firstTokenTimeout()).isEqualTo(Duration.ofSeconds(12));
    }

    @Test
    void byDefaultOnlyTheChainsLastModelIsTriedAgain() {
        Chain chain = ChainPlanner.plan(models("a", "b", "c"), Optional.empty());
        assertThat(chain.links()).extracting(Chain.Link::retries).containsExactly(0, 0, 1);
        assertThat(ChainLimits.DEFAULT_RETRIES_BEFORE_FALLBACK).isZero();
    }

    @Test
    void theDeadlineCoversTheLongestAttemptUnlessTheRequestSetsIt() {
        ChainAsk longOne = new ChainAsk(
                Optional.empty(),
                Optional.of(List.of(new ChainEntry("a", Optional.of(Duration.ofSeconds(200)), Optional.empty()))),
                Optional.empty(),
                NONE);
        assertThat(ChainPlanner.plan(longOne, Optional.empty()).deadline()).isEqualTo(Duration.ofSeconds(200));
        ChainAsk bounded = new ChainAsk(
                longOne.model(),
                longOne.models(),
                Optional.empty(),
                new ChainSettings(
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(Duration.ofSeconds(3))));
        assertThat(ChainPlanner.plan(bounded, Optional.empty()).deadline()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void outOfRangeValuesAreRefusedNamingTheField() {
        assertThatThrownBy(() -> ChainLimits.timeout(999, "redundancy.timeout_ms"))
                .isInstanceOfSatisfying(InvalidChainException.class, e -> {
                    assertThat(e.field()).isEqualTo("redundancy.timeout_ms");
                    assertThat(e.getMessage()).contains("1000..300000").contains("999");
                });
        assertThatThrownBy(() -> ChainLimits.timeout(300_001, "models[1].timeout_ms"))
                .isInstanceOf(InvalidChainException.class);
        assertThatThrownBy(() -> ChainLimits.firstToken(499, "redundancy.first_token_timeout_ms"))
                .isInstanceOf(InvalidChainException.class);
        assertThatThrownBy(() -> ChainLimits.firstToken(60_001, "redundancy.first_token_timeout_ms"))
                .isInstanceOf(InvalidChainException.class);
        assertThat(ChainLimits.timeout(1000, "t")).isEqualTo(Duration.ofSeconds(1));
        assertThat(ChainLimits.firstToken(60_000, "f")).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void keyDefaultsHoldOneToThreeDistinctModels() {
        assertThatThrownBy(() -> new FailoverDefaults(List.of(), NONE)).isInstanceOf(InvalidChainException.class);
        assertThatThrownBy(() -> new FailoverDefaults(
                        List.of(ChainEntry.of("a"), ChainEntry.of("b"), ChainEntry.of("c"), ChainEntry.of("d")), NONE))
                .isInstanceOf(InvalidChainException.class);
        assertThatThrownBy(() -> new FailoverDefaults(List.of(ChainEntry.of("a"), ChainEntry.of("a")), NONE))
                .isInstanceOf(InvalidChainException.class);
    }
}
