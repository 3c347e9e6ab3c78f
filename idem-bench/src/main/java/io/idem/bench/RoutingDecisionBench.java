package io.idem.bench;

import io.idem.core.breaker.Admission;
import io.idem.core.breaker.BreakerSnapshot;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobSpec;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.routing.CandidatePlan;
import io.idem.core.routing.CandidatePlanner;
import io.idem.core.routing.Eligibility;
import io.idem.core.routing.Routing;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one routing decision on the hot path: plan the lane's candidates, check each one's
 * static eligibility, and read each one's cached breaker state. No database, no network.
 *
 * <p>Run: {@code idem-bench/run jmh RoutingDecisionBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RoutingDecisionBench {
    private final Routing routing = routing();
    private final CandidatePlanner planner = new CandidatePlanner(routing);
    private final Eligibility eligibility = new Eligibility(routing, name -> "set");
    private final Map<String, BreakerSnapshot> breakers = Map.of("p3", BreakerSnapshot.closed("p3"));
    private final Instant now = Instant.parse("2026-12-01T10:00:00Z");

    private static Routing routing() {
        Map<String, ProviderSettings> providers = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            String name = "p" + i;
            providers.put(
                    name,
                    new ProviderSettings(
                            name,
                            "fake",
                            new ProviderSettings.Endpoint(
                                    URI.create("http://127.0.0.1:9"), Optional.of("KEY"), Duration.ofSeconds(2)),
                            "m",
                            Map.of("fast-image", "v"),
                            new PricingModel.PerImage(BigDecimal.ONE),
                            true,
                            new Capabilities(
                                    Set.of(JobKind.IMAGE),
                                    Set.of(),
                                    2048,
                                    2048,
                                    4,
                                    Set.of("eu", "us"),
                                    true,
                                    true,
                                    false),
                            Optional.empty()));
        }
        return new Routing(
                providers,
                Map.of("standard", List.of("p0", "p1", "p2", "p3"), "fast", List.of("p4", "p5")),
                "standard");
    }

    private static final JobSpec.Generation GENERATION =
            new JobSpec.Generation("a lighthouse", "fast-image", JobKind.IMAGE, "1024x1024", 1);

    @Benchmark
    public int planCheckAndAdmit() {
        CandidatePlan plan = planner.plan("standard", null, null, "fast-image");
        if (!(plan instanceof CandidatePlan.Planned planned)) {
            return -1;
        }
        int admitted = 0;
        for (var check : eligibility.check(planned.candidates(), GENERATION, Optional.of("eu"))) {
            BreakerSnapshot snapshot =
                    breakers.getOrDefault(check.provider(), BreakerSnapshot.closed(check.provider()));
            if (check.eligible() && Admission.decide(snapshot, now) == Admission.Decision.ALLOW) {
                admitted++;
            }
        }
        return admitted;
    }
}
