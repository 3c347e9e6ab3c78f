package io.idem.server.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.VideoParams;
import io.idem.core.engine.DeferralSettings;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ModelCapabilities;
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

class VideoRequestsTest {
    /** Eight-second 720p landscape clips only, and no first frames; its model {@code long-clip} makes 20 s. */
    private static final VideoCapabilities SHORT_CLIPS =
            new VideoCapabilities(Set.of(4, 8), 0, Set.of("720p"), Set.of("16:9"), false, false);

    private static ProviderSettings provider(String name, Set<JobKind> kinds, VideoCapabilities video) {
        return new ProviderSettings(
                name,
                "fake",
                new ProviderSettings.Endpoint(
                        URI.create("http://127.0.0.1:9"), Optional.empty(), Duration.ofSeconds(1)),
                "m",
                Map.of("long-clip", "lc"),
                new PricingModel.PerOutputSecond(new BigDecimal("0.10")),
                true,
                new Capabilities(
                        kinds,
                        Set.of(),
                        0,
                        0,
                        4,
                        Set.of(),
                        true,
                        true,
                        true,
                        new Capabilities.Media(
                                video,
                                Map.of(
                                        "long-clip",
                                        new ModelCapabilities(
                                                Set.of(),
                                                Optional.of(new VideoCapabilities(
                                                        Set.of(20), 0, Set.of(), Set.of(), true, true)))))),
                Optional.empty());
    }

    private final JobRequests requests = new JobRequests(
            new Routing(
                    new LinkedHashMap<>(Map.of(
                            "images", provider("images", Set.of(JobKind.IMAGE), VideoCapabilities.ANY),
                            "clips", provider("clips", Set.of(JobKind.VIDEO), SHORT_CLIPS))),
                    Map.of("standard", List.of("images", "clips")),
                    "standard"),
            name -> null,
            DeferralSettings.DEFAULTS,
            new OutboundUrls(false));

    private static JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text);
    }

    private io.idem.core.domain.JobSpec parse(String body) throws Exception {
        return requests.parse(json(body), Set.of());
    }

    private static void refused(ThrowingCall call, int status, String code, String mentions) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ApiError.class, e -> {
            assertThat(e.status()).isEqualTo(status);
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).contains(mentions);
        });
    }

    @FunctionalInterface
    interface ThrowingCall {
        void run() throws Exception;
    }

    @Test
    void aVideoRequestIsNormalizedAndGoesOnlyToProvidersThatMakeVideo() throws Exception {
        var spec = parse("{\"prompt\": \"waves\", \"kind\": \"video\", \"duration_seconds\": 8}");

        assertThat(spec.video())
                .contains(new VideoParams(
                        8,
                        "720p",
                        "16:9",
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        false));
        assertThat(spec.size()).isEqualTo("1280x720");
        assertThat(spec.candidates()).containsExactly("clips");
        assertThat(spec.skipped()).containsEntry("images", "kind_unsupported");
    }

    @Test
    void aSizeAndTheResolutionWithAspectRatioItStandsForHashTheSame() throws Exception {
        var bySize = parse("{\"prompt\": \"waves\", \"kind\": \"video\", \"size\": \"1280x720\"}");
        var byResolution = parse(
                "{\"prompt\": \"waves\", \"kind\": \"video\", \"resolution\": \"720p\", \"aspect_ratio\": \"16:9\"}");

        assertThat(JobRequests.hash(bySize)).isEqualTo(JobRequests.hash(byResolution));
    }

    @Test
    void everyVideoParameterIsPartOfTheHash() throws Exception {
        String base = "{\"prompt\": \"waves\", \"kind\": \"video\", \"model\": \"long-clip\", \"duration_seconds\": 20";
        byte[] plain = JobRequests.hash(parse(base + "}"));
        for (String extra : List.of(
                "\"fps\": 24",
                "\"seed\": 7",
                "\"negative_prompt\": \"rain\"",
                "\"start_image\": \"https://example.com/a.png\"",
                "\"audio\": true",
                "\"aspect_ratio\": \"9:16\"")) {
            assertThat(JobRequests.hash(parse(base + ", " + extra + "}")))
                    .as(extra)
                    .isNotEqualTo(plain);
        }
    }

    @Test
    void badVideoParametersAreRefusedNamingTheField() {
        String head = "{\"prompt\": \"waves\", \"kind\": \"video\", ";
        refused(() -> parse(head + "\"duration_seconds\": 0}"), 400, "invalid_duration_seconds", "duration_seconds");
        refused(() -> parse(head + "\"duration_seconds\": \"8\"}"), 400, "invalid_duration_seconds", "8");
        refused(() -> parse(head + "\"resolution\": \"hd\"}"), 400, "invalid_resolution", "resolution");
        refused(() -> parse(head + "\"aspect_ratio\": \"wide\"}"), 400, "invalid_aspect_ratio", "aspect_ratio");
        refused(() -> parse(head + "\"fps\": 1000}"), 400, "invalid_fps", "fps");
        refused(() -> parse(head + "\"seed\": -1}"), 400, "invalid_seed", "seed");
        refused(() -> parse(head + "\"audio\": \"yes\"}"), 400, "invalid_audio", "audio");
        refused(() -> parse(head + "\"start_image\": \"file:///etc/passwd\"}"), 400, "invalid_start_image", "http");
        refused(
                () -> parse(head + "\"end_image\": \"https://example.com/b.png\"}"),
                400,
                "invalid_end_image",
                "start_image");
        refused(
                () -> parse(head + "\"size\": \"1280x720\", \"resolution\": \"720p\"}"),
                400,
                "invalid_size",
                "not both");
        refused(() -> parse(head + "\"n\": 2}"), 400, "invalid_n", "n must");
        refused(
                () -> parse("{\"prompt\": \"a cat\", \"duration_seconds\": 8}"),
                400,
                "invalid_duration_seconds",
                "video jobs only");
    }

    @Test
    void aClipNoProviderCanMakeIsRefusedAtIntakeSayingWhy() {
        String head = "{\"prompt\": \"waves\", \"kind\": \"video\", ";
        refused(() -> parse(head + "\"duration_seconds\": 12}"), 400, "no_eligible_provider", "duration_unsupported");
        refused(
                () -> parse(head + "\"resolution\": \"1080p\"}"),
                400,
                "no_eligible_provider",
                "resolution_unsupported");
        refused(
                () -> parse(head + "\"start_image\": \"https://example.com/a.png\"}"),
                400,
                "no_eligible_provider",
                "image_to_video_unsupported");
    }

    @Test
    void aModelsOwnCapabilitiesWinOverItsProviders() throws Exception {
        var spec =
                parse("{\"prompt\": \"waves\", \"kind\": \"video\", \"model\": \"long-clip\", \"duration_seconds\": 20,"
                        + " \"start_image\": \"https://example.com/a.png\"}");

        assertThat(spec.candidates()).containsExactly("clips");
        refused(
                () -> parse("{\"prompt\": \"waves\", \"kind\": \"video\", \"model\": \"long-clip\"}"),
                400,
                "no_eligible_provider",
                "duration_unsupported");
    }

    @Test
    void aCallMayTakeUpToTheConfiguredMaximumTimeout() throws Exception {
        assertThat(parse("{\"prompt\": \"waves\", \"kind\": \"video\", \"timeout\": 3600}")
                        .timeoutSeconds())
                .isEqualTo(3600);
        refused(
                () -> parse("{\"prompt\": \"waves\", \"kind\": \"video\", \"timeout\": 3601}"),
                400,
                "invalid_timeout",
                "1..3600");
    }
}
