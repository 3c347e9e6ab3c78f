package io.idem.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ModelCapabilities;
import io.idem.core.provider.VideoCapabilities;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VideoParamsTest {
    private static VideoParams clip(int seconds, String resolution, String ratio) {
        return new VideoParams(
                seconds,
                resolution,
                ratio,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                false);
    }

    private static JobSpec.Generation video(VideoParams params) {
        return new JobSpec.Generation("waves", null, JobKind.VIDEO, params.size(), 1, Optional.of(params));
    }

    @Test
    void theFrameSizeFollowsFromTheShortSideAndTheAspectRatio() {
        assertThat(clip(4, "720p", "16:9").size()).isEqualTo("1280x720");
        assertThat(clip(4, "720p", "9:16").size()).isEqualTo("720x1280");
        assertThat(clip(4, "1080p", "1:1").size()).isEqualTo("1080x1080");
        assertThat(clip(4, "480p", "16:9").size()).isEqualTo("854x480");
    }

    @Test
    void badParametersAreRefusedQuotingTheValue() {
        assertThatThrownBy(() -> clip(0, "720p", "16:9")).hasMessageContaining("was 0");
        assertThatThrownBy(() -> clip(4, "hd", "16:9")).hasMessageContaining("'hd'");
        assertThatThrownBy(() -> clip(4, "720p", "wide")).hasMessageContaining("'wide'");
        assertThatThrownBy(() -> new JobSpec.Generation("x", null, JobKind.VIDEO, "1280x720", 2))
                .hasMessageContaining("one clip");
        assertThatThrownBy(() -> new JobSpec.Generation(
                        "x", null, JobKind.IMAGE, "1024x1024", 1, Optional.of(VideoParams.DEFAULTS)))
                .hasMessageContaining("kind video");
    }

    @Test
    void aVideoIsExpectedToCostItsSecondsAtThePerSecondPrice() {
        var spec = new JobSpec(
                video(clip(8, "720p", "16:9")), new JobSpec.Route("standard", List.of("p"), false), 3, Map.of(), "{}");
        var both = new PricingModel.PerImageAndSecond(
                new PricingModel.PerImage(new BigDecimal("0.04")),
                new PricingModel.PerOutputSecond(new BigDecimal("0.05")));

        assertThat(new PricingModel.PerOutputSecond(new BigDecimal("0.05")).expectedCost(spec))
                .isEqualByComparingTo("0.40");
        assertThat(both.expectedCost(spec)).isEqualByComparingTo("0.40");
        assertThat(new PricingModel.PerImage(new BigDecimal("0.04")).expectedCost(spec))
                .isEqualByComparingTo("0");
    }

    @Test
    void capabilitiesNameWhyAClipCannotBeMadeAndAModelsOwnEntryWins() {
        var shortOnly = new VideoCapabilities(Set.of(4), 0, Set.of("720p"), Set.of("16:9"), false, false);
        var capabilities = new Capabilities(
                Set.of(JobKind.VIDEO),
                Set.of(),
                0,
                0,
                1,
                Set.of(),
                true,
                true,
                false,
                new Capabilities.Media(
                        shortOnly,
                        Map.of(
                                "long",
                                new ModelCapabilities(
                                        Set.of(),
                                        Optional.of(new VideoCapabilities(
                                                Set.of(), 20, Set.of(), Set.of(), true, true))))));

        assertThat(capabilities.whyNot("m", video(clip(4, "720p", "16:9")), null))
                .isNull();
        assertThat(capabilities.whyNot("m", video(clip(8, "720p", "16:9")), null))
                .isEqualTo("duration_unsupported");
        assertThat(capabilities.whyNot("m", video(clip(4, "1080p", "16:9")), null))
                .isEqualTo("resolution_unsupported");
        assertThat(capabilities.whyNot("m", video(clip(4, "720p", "9:16")), null))
                .isEqualTo("aspect_ratio_unsupported");
        assertThat(capabilities.whyNot("long", video(clip(20, "1080p", "9:16")), null))
                .isNull();
        assertThat(capabilities.whyNot("long", video(clip(30, "1080p", "9:16")), null))
                .isEqualTo("duration_too_long");
        assertThat(capabilities.whyNot("m", new JobSpec.Generation("a cat", null, JobKind.IMAGE, "1024x1024", 1), null))
                .isEqualTo("kind_unsupported");
    }
}
