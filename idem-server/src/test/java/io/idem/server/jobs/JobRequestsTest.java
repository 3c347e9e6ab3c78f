package io.idem.server.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.core.provider.ProviderSettings;
import io.idem.core.routing.Routing;
import io.idem.server.http.ApiError;
import io.idem.server.http.Json;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobRequestsTest {
    private static ProviderSettings provider(String name, String adapter) {
        return new ProviderSettings(
                name,
                adapter,
                URI.create("http://127.0.0.1:9"),
                Optional.empty(),
                "m",
                Map.of(),
                Duration.ofSeconds(1),
                BigDecimal.ZERO,
                true);
    }

    private final JobRequests requests = new JobRequests(new Routing(
            new LinkedHashMap<>(
                    Map.of("primary", provider("primary", "fake"), "vendor", provider("vendor", "openai_images"))),
            Map.of("standard", List.of("primary", "vendor")),
            "standard"));

    private static com.fasterxml.jackson.databind.JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text);
    }

    @Test
    void simulateNamingANonFakeProviderIsRefused() {
        assertThatThrownBy(
                        () -> requests.parse(json("{\"prompt\": \"x\", \"simulate\": {\"vendor\": \"ok\"}}"), Set.of()))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.code()).isEqualTo("simulate_not_allowed");
                });
    }

    @Test
    void equivalentRequestsHashTheSame() throws Exception {
        var a = requests.parse(json("{\"prompt\": \"x\", \"metadata\": {\"b\": 1, \"a\": 2}}"), Set.of());
        var b = requests.parse(
                json("{\"metadata\": {\"a\": 2, \"b\": 1}, \"size\": \"1024x1024\", \"prompt\": \"x\", \"n\": 1}"),
                Set.of());
        assertThat(JobRequests.hash(a)).isEqualTo(JobRequests.hash(b));
        var c = requests.parse(json("{\"prompt\": \"y\"}"), Set.of());
        assertThat(JobRequests.hash(c)).isNotEqualTo(JobRequests.hash(a));
    }

    @Test
    void aSingleNamedProviderIsPinned() throws Exception {
        var pinned =
                requests.parse(json("{\"prompt\": \"x\", \"provider_policy\": {\"primary\": \"vendor\"}}"), Set.of());
        assertThat(pinned.pinned()).isTrue();
        assertThat(pinned.candidates()).containsExactly("vendor");
        var auto = requests.parse(json("{\"prompt\": \"x\"}"), Set.of());
        assertThat(auto.pinned()).isFalse();
        assertThat(auto.candidates()).containsExactly("primary", "vendor");
    }
}
