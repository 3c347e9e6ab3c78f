package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.breaker.BreakerState;
import io.idem.providers.fake.FakeVendorServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The demo as {@code ./idem serve} runs it with no provider configured (the breaker threshold left
 * at its default), next to the same fake vendors configured as providers: only the demo keeps
 * failing over on every "HTTP 503" and keeps its parked jobs for the operator; configured providers
 * keep the ordinary breaker and reconcile sweep.
 */
class DemoDefaultsTest {
    private static final String FAILOVER =
            "{\"prompt\": \"a failover\", \"timeout\": 3, \"simulate\": {\"primary\": \"http_503\"}}";

    @Test
    void theDemoFailsOverOnEvery503AndItsParkedJobOutlastsTheSweep() {
        try (TestServer demo = TestServer.start(defaults(Map.of()))) {
            for (int i = 0; i < 10; i++) {
                assertThat(path(settle(demo, FAILOVER))).as("job " + (i + 1)).containsExactly("primary", "backup");
            }
            assertThat(demo.node().breakers().snapshot("primary").state()).isEqualTo(BreakerState.CLOSED);

            String parked = ReviewTest.park(demo, "disconnect");
            demo.awaitSweeps(3);
            assertThat(ReviewTest.state(demo, parked)).isEqualTo("manual_review");

            // the sweep may hold the job for a moment; the operator's request then answers 409 and is sent again
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> demo.post("/v1/jobs/" + parked + "/reconcile", TestServer.ADMIN_KEY, null)
                                    .status()
                            == 200);
            assertThat(ReviewTest.state(demo, parked))
                    .as("an operator still reconciles it with the provider")
                    .isEqualTo("succeeded");
        }
    }

    @Test
    void configuredFakeProvidersKeepTheOrdinaryBreakerAndReconcileSweep() {
        try (FakeVendorServer primary = FakeVendorServer.start(0);
                FakeVendorServer backup = FakeVendorServer.start(0);
                TestServer node = TestServer.start(
                        defaults(Map.of("PROVIDERS_JSON", """
                        {"providers": {"primary": {"adapter": "fake", "base_url": "%s"},
                                       "backup": {"adapter": "fake", "base_url": "%s"}}}
                        """.formatted(primary.baseUrl(), backup.baseUrl()))))) {
            String parked = ReviewTest.park(node, "disconnect");
            await().atMost(Duration.ofSeconds(20))
                    .alias("the sweep reconciles it on its own")
                    .until(() -> ReviewTest.state(node, parked).equals("succeeded"));

            List<List<String>> paths = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                paths.add(path(settle(node, FAILOVER)));
            }
            assertThat(node.node().breakers().snapshot("primary").state()).isEqualTo(BreakerState.OPEN);
            assertThat(paths.getLast()).as("an open breaker skips primary").containsExactly("backup");
        }
    }

    /** The settings a fresh {@code ./idem serve} has, but a sweep every second and the test's own env. */
    private static Map<String, String> defaults(Map<String, String> extra) {
        Map<String, String> env = new java.util.HashMap<>(extra);
        env.put("IDEM_BREAKER_FAILURE_THRESHOLD", "");
        env.put("RECONCILE_INTERVAL_SECONDS", "1");
        return env;
    }

    private static JsonNode settle(TestServer on, String body) {
        String id =
                on.post("/v1/jobs", TestServer.ADMIN_KEY, body).body().get("id").asText();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> Set.of("succeeded", "failed", "manual_review").contains(ReviewTest.state(on, id)));
        return ReviewTest.job(on, id);
    }

    private static List<String> path(JsonNode job) {
        List<String> providers = new ArrayList<>();
        job.get("attempts").forEach(a -> providers.add(a.get("provider").asText()));
        return providers;
    }
}
