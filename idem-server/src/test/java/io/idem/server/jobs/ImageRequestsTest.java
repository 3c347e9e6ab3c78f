package io.idem.server.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.ImageParams;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobSpec;
import io.idem.core.engine.DeferralSettings;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.provider.VideoCapabilities;
import io.idem.core.routing.Routing;
import io.idem.server.http.ApiError;
import io.idem.server.http.Json;
import io.idem.server.outbound.OutboundUrls;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ImageRequestsTest {
    /** {@code full} honours every image parameter, {@code plain} only the output format. */
    private static ProviderSettings provider(String name, Set<String> parameters) {
        return new ProviderSettings(
                name,
                "fake",
                new ProviderSettings.Endpoint(
                        URI.create("http://127.0.0.1:9"), Optional.empty(), Duration.ofSeconds(1)),
                "m",
                Map.of(),
                new PricingModel.PerImage(new BigDecimal("0.01")),
                true,
                new Capabilities(
                        Set.of(JobKind.IMAGE, JobKind.VIDEO),
                        Set.of(),
                        0,
                        0,
                        4,
                        Set.of(),
                        true,
                        true,
                        true,
                        new Capabilities.Media(VideoCapabilities.ANY, Map.of(), parameters)),
                Optional.empty());
    }

    private static JobRequests requests(List<String> lane) {
        var providers = new LinkedHashMap<String, ProviderSettings>();
        providers.put("plain", provider("plain", Set.of(ImageParams.OUTPUT_FORMAT)));
        providers.put("full", provider("full", ImageParams.ALL));
        return new JobRequests(
                new Routing(providers, Map.of("standard", lane), "standard"),
                name -> null,
                DeferralSettings.DEFAULTS,
                new OutboundUrls(false));
    }

    private final JobRequests requests = requests(List.of("plain", "full"));

    private static JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text);
    }

    private JobSpec parse(String body) throws Exception {
        return requests.parse(json(body), Set.of());
    }

    private static void refused(ThrowingCall call, String code, String... mentions) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ApiError.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).contains(mentions);
        });
    }

    @FunctionalInterface
    interface ThrowingCall {
        void run() throws Exception;
    }

    @Test
    void everyImageParameterIsReadAsNamed() throws Exception {
        var spec = parse("""
                {"prompt": "a fox", "quality": "high", "style": "vivid", "background": "transparent",
                 "output_format": "webp", "output_compression": 80, "moderation": "low",
                 "provider_options": {"seed": 7, "a": [1, 2]}}""");

        assertThat(spec.image())
                .isEqualTo(new ImageParams(
                        Optional.of("high"),
                        Optional.of("vivid"),
                        Optional.of("transparent"),
                        Optional.of("webp"),
                        Optional.of(80),
                        Optional.of("low"),
                        Optional.of("{\"a\":[1,2],\"seed\":7}")));
        assertThat(spec.candidates()).containsExactly("full");
        assertThat(spec.skipped()).containsEntry("plain", "unsupported_parameter:quality");
    }

    @Test
    void aRequestNamingNoneHashesAsItAlwaysDid() throws Exception {
        var spec = parse("{\"prompt\": \"a fox\"}");

        assertThat(spec.image()).isEqualTo(ImageParams.NONE);
        assertThat(spec.candidates()).containsExactly("plain", "full");
        assertThat(ImageRequests.canonical(spec)).isEmpty();
    }

    @Test
    void everyImageParameterIsPartOfTheHash() throws Exception {
        String base = "{\"prompt\": \"a fox\", \"output_format\": \"jpeg\"";
        byte[] plain = JobRequests.hash(parse(base + "}"));
        List<String> extras = List.of(
                "\"quality\": \"high\"",
                "\"style\": \"natural\"",
                "\"background\": \"opaque\"",
                "\"output_compression\": 50",
                "\"moderation\": \"auto\"",
                "\"provider_options\": {\"seed\": 1}",
                "\"size\": \"auto\"");
        for (String extra : extras) {
            assertThat(JobRequests.hash(parse(base + ", " + extra + "}")))
                    .as(extra)
                    .isNotEqualTo(plain);
        }
        assertThat(JobRequests.hash(parse(base + ", \"quality\": \"low\"}")))
                .isNotEqualTo(JobRequests.hash(parse(base + ", \"quality\": \"high\"}")));
        assertThat(JobRequests.hash(parse(base + ", \"provider_options\": {\"b\": 1, \"a\": 2}}")))
                .as("provider options hash by meaning, not key order")
                .isEqualTo(JobRequests.hash(parse(base + ", \"provider_options\": {\"a\": 2, \"b\": 1}}")));
    }

    @Test
    void badImageParametersAreRefusedNamingTheField() {
        String head = "{\"prompt\": \"a fox\", ";
        refused(() -> parse(head + "\"quality\": \"ultra\"}"), "invalid_quality", "quality", "ultra");
        refused(() -> parse(head + "\"quality\": 3}"), "invalid_quality", "quality");
        refused(() -> parse(head + "\"style\": \"bold\"}"), "invalid_style", "style");
        refused(() -> parse(head + "\"background\": \"green\"}"), "invalid_background", "background");
        refused(() -> parse(head + "\"output_format\": \"gif\"}"), "invalid_output_format", "output_format");
        refused(() -> parse(head + "\"moderation\": \"none\"}"), "invalid_moderation", "moderation");
        refused(
                () -> parse(head + "\"output_format\": \"jpeg\", \"output_compression\": 101}"),
                "invalid_output_compression",
                "output_compression");
        refused(
                () -> parse(head + "\"output_format\": \"jpeg\", \"output_compression\": 1.5}"),
                "invalid_output_compression",
                "output_compression");
        refused(
                () -> parse(head + "\"output_format\": \"png\", \"output_compression\": 50}"),
                "invalid_output_compression",
                "jpeg or webp");
        refused(() -> parse(head + "\"output_compression\": 50}"), "invalid_output_compression", "jpeg or webp");
        refused(() -> parse(head + "\"provider_options\": [1]}"), "invalid_provider_options", "object");
        refused(
                () -> parse(head + "\"provider_options\": {\"x\": \"" + "a".repeat(9000) + "\"}}"),
                "provider_options_too_large",
                "provider_options");
        refused(() -> parse(head + "\"size\": \"big\"}"), "invalid_size", "auto");
        refused(
                () -> parse(head + "\"kind\": \"video\", \"quality\": \"high\"}"),
                "invalid_quality",
                "image jobs only");
    }

    @Test
    void sizeAutoGoesOnlyToProvidersThatHonourIt() throws Exception {
        var spec = parse("{\"prompt\": \"a fox\", \"size\": \"auto\"}");

        assertThat(spec.size()).isEqualTo("auto");
        assertThat(spec.candidates()).containsExactly("full");
        assertThat(spec.skipped()).containsEntry("plain", "unsupported_parameter:size_auto");
    }

    @Test
    void aParameterNoProviderHonoursIsRefusedNamingTheParameterAndTheProvider() {
        JobRequests plainOnly = requests(List.of("plain"));

        assertThatThrownBy(() -> plainOnly.parse(json("{\"prompt\": \"a fox\", \"style\": \"vivid\"}"), Set.of()))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.code()).isEqualTo("unsupported_parameter");
                    assertThat(e.getMessage()).contains("'plain'", "'style'");
                });
    }

    @Test
    void aPinnedProviderThatCannotHonourAParameterIsRefusedTheSameWay() {
        refused(
                () -> parse(
                        "{\"prompt\": \"a fox\", \"quality\": \"hd\", \"provider_policy\": {\"primary\": \"plain\"}}"),
                "unsupported_parameter",
                "'plain'",
                "'quality'");
    }

    @Test
    void anEditGoesOnlyToProvidersThatEditAndHashesByItsImages() throws Exception {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        var image = io.idem.core.domain.InputImage.of(false, png).orElseThrow();
        var other = io.idem.core.domain.InputImage.of(false, java.util.Arrays.copyOf(png, 9))
                .orElseThrow();
        JsonNode body = json("{\"prompt\": \"add a hat\"}");

        var spec = requests.parse(body, Set.of(), JobRequests.Asker.ANYONE, List.of(image));

        assertThat(spec.image().images()).containsExactly(image);
        assertThat(spec.candidates()).containsExactly("full");
        assertThat(spec.skipped()).containsEntry("plain", "unsupported_parameter:image");
        assertThat(JobRequests.hash(spec))
                .isNotEqualTo(JobRequests.hash(parse("{\"prompt\": \"add a hat\"}")))
                .isNotEqualTo(
                        JobRequests.hash(requests.parse(body, Set.of(), JobRequests.Asker.ANYONE, List.of(other))))
                .isEqualTo(JobRequests.hash(requests.parse(body, Set.of(), JobRequests.Asker.ANYONE, List.of(image))));
    }
}
