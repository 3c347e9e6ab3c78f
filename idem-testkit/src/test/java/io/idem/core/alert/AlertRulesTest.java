package io.idem.core.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which provider events become alerts, and when: the quiet period, incidents, recovery, budgets. */
class AlertRulesTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private final AlertRules rules = new AlertRules(Duration.ofSeconds(60));
    private long ids;

    private List<Alert> at(int second, String type) {
        return rules.onEvent(
                new ProviderEvent(++ids, "primary", type, Map.of("reason", "http_503"), T0.plusSeconds(second)));
    }

    private List<Alert> tick(int second) {
        return rules.tick(T0.plusSeconds(second));
    }

    @ParameterizedTest(name = "open at 0, closed at {0} s -> {1} alerts")
    @CsvSource({"10, 0", "59, 0", "61, 2", "600, 2"})
    void aBreakerIsAnAlertOnlyWhenItOutlastsTheQuietPeriod(int closedAt, int alerts) {
        List<Alert> all = new java.util.ArrayList<>(at(0, "breaker.open"));
        for (int s = 1; s < closedAt; s++) {
            all.addAll(tick(s));
        }
        all.addAll(at(closedAt, "breaker.closed"));
        all.addAll(tick(closedAt + 120));
        assertThat(all).hasSize(alerts);
        if (alerts == 2) {
            assertThat(all.get(0).kind()).isEqualTo("provider.down");
            assertThat(all.get(1).kind()).isEqualTo("provider.recovered");
            assertThat(all.get(1).text()).contains("recovered after");
        }
    }

    @Test
    void reopeningFromHalfOpenIsTheSameIncident() {
        at(0, "breaker.open");
        assertThat(tick(61)).hasSize(1);
        at(120, "breaker.half_open");
        at(121, "breaker.open");
        assertThat(tick(300)).isEmpty();
        List<Alert> recovered = at(400, "breaker.closed");
        assertThat(recovered).singleElement().satisfies(a -> {
            assertThat(a.key()).isEqualTo("provider.recovered:primary:1");
            assertThat(a.text()).isEqualTo("provider primary recovered after 6 min");
        });
    }

    @Test
    void theSameLogGivesTheSameKeysOnEveryNode() {
        AlertRules other = new AlertRules(Duration.ofSeconds(60));
        var open = new ProviderEvent(7, "primary", "breaker.open", Map.of(), T0);
        rules.onEvent(open);
        other.onEvent(open);
        assertThat(rules.tick(T0.plusSeconds(90)))
                .extracting(Alert::key)
                .isEqualTo(
                        other.tick(T0.plusSeconds(75)).stream().map(Alert::key).toList())
                .containsExactly("provider.down:primary:7");
    }

    @Test
    void budgetThresholdsAlertAtOnce() {
        var warning = rules.onEvent(
                new ProviderEvent(3, "backup", "budget.warning", Map.of("spent_usd", "5.5", "budget_usd", "10"), T0));
        assertThat(warning).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo("budget.warning");
            assertThat(a.text()).isEqualTo("provider backup passed half its daily budget: $5.5 of $10");
        });
        var exhausted = rules.onEvent(
                new ProviderEvent(4, "backup", "budget.exhausted", Map.of("spent_usd", "10", "budget_usd", "10"), T0));
        assertThat(exhausted).singleElement().extracting(Alert::text).asString().contains("skipped until 00:00 UTC");
    }

    @Test
    void aClosedBreakerWithoutAnOpenOneIsNothing() {
        assertThat(at(0, "breaker.closed")).isEmpty();
        assertThat(at(1, "breaker.half_open")).isEmpty();
        assertThat(tick(1000)).isEmpty();
    }
}
