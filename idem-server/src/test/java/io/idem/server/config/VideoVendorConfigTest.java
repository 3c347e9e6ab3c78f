package io.idem.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.VideoParams;
import io.idem.core.provider.ProviderSettings;
import io.idem.providers.kling.KlingVendor;
import io.idem.providers.veo.VeoVendor;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Kling's key pair and the video vendors' clips, read from provider configuration. */
class VideoVendorConfigTest {
    private static IdemConfig load(String providersJson, Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.put("PROVIDERS_JSON", providersJson);
        return new ConfigLoader(all).load(Optional.empty());
    }

    private static ProviderSettings provider(String entry, Map<String, String> env) {
        return load("{\"providers\": {\"p\": " + entry + "}}", env)
                .routing()
                .providers()
                .get("p");
    }

    private static JobSpec.Generation clip(int seconds, String resolution, String ratio) {
        return new JobSpec.Generation(
                "a fox in the snow",
                "m",
                JobKind.VIDEO,
                VideoParams.frameSize(resolution, ratio),
                1,
                Optional.of(new VideoParams(
                        seconds,
                        resolution,
                        ratio,
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        false)));
    }

    @Test
    void klingTakesItsAccessAndSecretKeyVariablesByDefaultOrAsNamed() {
        ProviderSettings byDefault = provider("{\"adapter\": \"kling\"}", Map.of());
        ProviderSettings named = provider(
                "{\"adapter\": \"kling\", \"api_key_env\": \"MY_AK\", \"secret_key_env\": \"MY_SK\"}", Map.of());

        assertThat(byDefault.apiKeyEnv()).contains(KlingVendor.ACCESS_KEY_VARIABLE);
        assertThat(byDefault.secretKeyEnv()).contains(KlingVendor.SECRET_KEY_VARIABLE);
        assertThat(byDefault.defaultModel()).isEqualTo(KlingVendor.DEFAULT_MODEL);
        assertThat(named.apiKeyEnv()).contains("MY_AK");
        assertThat(named.secretKeyEnv()).contains("MY_SK");
    }

    @Test
    void theSecretKeyIsReadAtStartAndHiddenLikeEveryKey() {
        IdemConfig config = load(
                "{\"providers\": {\"k\": {\"adapter\": \"kling\"}}}",
                Map.of("KLING_ACCESS_KEY", "ak-visible-only-to-kling", "KLING_SECRET_KEY", "sk-never-printed-0b7e"));

        assertThat(config.credentials()).containsEntry("KLING_SECRET_KEY", "sk-never-printed-0b7e");
        assertThat(config.secretValues()).containsValue("sk-never-printed-0b7e");
        assertThat(config.toString())
                .doesNotContain("sk-never-printed-0b7e")
                .doesNotContain("ak-visible-only-to-kling");
    }

    @Test
    void aSecretKeyVariableIsOnlyForAKeyPairVendor() {
        assertThatThrownBy(() -> provider("{\"adapter\": \"fal\", \"secret_key_env\": \"X\"}", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("providers.p.secret_key_env is only for adapters that sign with a key pair");
    }

    @Test
    void aVideoVendorWithoutDeclaredClipsIsSkippedForAClipItsApiCannotMake() {
        ProviderSettings kling = provider("{\"adapter\": \"kling\"}", Map.of());
        ProviderSettings veo = provider("{\"adapter\": \"veo\", \"model\": \"veo-3.1-generate-001\"}", Map.of());

        assertThat(kling.capabilities().kinds()).containsExactly(JobKind.VIDEO);
        assertThat(kling.capabilities().whyNot("m", clip(5, "1080p", "9:16"), null))
                .isNull();
        assertThat(kling.capabilities().whyNot("m", clip(8, "720p", "16:9"), null))
                .isEqualTo("duration_unsupported");
        assertThat(kling.capabilities().whyNot("m", clip(5, "480p", "16:9"), null))
                .isEqualTo("resolution_unsupported");
        assertThat(veo.capabilities().whyNot("m", clip(8, "720p", "16:9"), null))
                .isNull();
        assertThat(veo.capabilities().whyNot("m", clip(5, "720p", "16:9"), null))
                .isEqualTo("duration_unsupported");
        assertThat(veo.capabilities().whyNot("m", clip(4, "720p", "1:1"), null)).isEqualTo("aspect_ratio_unsupported");
        assertThat(veo.apiKeyEnv()).contains(VeoVendor.KEY_VARIABLE);
    }

    @Test
    void declaredClipsWinOverTheVendors() {
        ProviderSettings kling =
                provider("{\"adapter\": \"kling\", \"capabilities\": {\"video\": {\"durations\": [5]}}}", Map.of());

        assertThat(kling.capabilities().whyNot("m", clip(10, "720p", "16:9"), null))
                .isEqualTo("duration_unsupported");
        assertThat(kling.capabilities().whyNot("m", clip(5, "480p", "16:9"), null))
                .isNull();
    }
}
