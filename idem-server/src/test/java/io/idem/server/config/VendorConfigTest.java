package io.idem.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.core.domain.JobKind;
import io.idem.core.domain.VideoParams;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.text.Redactor;
import io.idem.providers.Adapters;
import io.idem.providers.ChatAdapters;
import io.idem.providers.Vendors;
import io.idem.providers.vendor.VendorDescriptor;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Provider entries read through the vendor registry: every vendor's name, its defaults, its pricing. */
class VendorConfigTest {
    private static IdemConfig load(String providersJson, Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.put("PROVIDERS_JSON", providersJson);
        return new ConfigLoader(all).load(Optional.empty());
    }

    private static ProviderSettings jobProvider(String entry) {
        return load("{\"providers\": {\"p\": " + entry + "}}", Map.of())
                .routing()
                .providers()
                .get("p");
    }

    @Test
    void everyVendorWithAJobSideIsAcceptedTakesItsDefaultsAndCreatesItsAdapter() {
        for (String name : Vendors.jobNames()) {
            VendorDescriptor vendor = Vendors.named(name).orElseThrow();
            String model = vendor.defaults().model().isPresent() ? "" : ", \"model\": \"m\"";
            IdemConfig config =
                    load("{\"providers\": {\"p\": {\"adapter\": \"" + name + "\"" + model + "}}}", Map.of());
            ProviderSettings p = config.routing().providers().get("p");

            assertThat(p.adapter()).as(name).isEqualTo(name);
            assertThat(p.baseUrl()).as(name).isEqualTo(vendor.defaults().baseUrl());
            assertThat(p.apiKeyEnv()).as(name).isEqualTo(vendor.defaults().keyVariable());
            assertThat(p.defaultModel())
                    .as(name)
                    .isEqualTo(vendor.defaults().model().orElse("m"));
            assertThat(p.pricing()).as(name).isEqualTo(vendor.pricing());
            assertThat(p.acceptsSimulate())
                    .as(name)
                    .isEqualTo(vendor.capabilities().simulate());
            assertThat(config.inProcessFakes().contains("p"))
                    .as(name)
                    .isEqualTo(vendor.defaults().inProcess());
            assertThat(Adapters.create(p, variable -> null, Redactor.shapesOnly(), java.time.InstantSource.system()))
                    .as(name)
                    .isNotNull();
        }
    }

    @Test
    void falReplicateAndRunwareMakeVideoAndRunwareIsNeverRoutedASoundtrackItCannotAskFor() {
        for (String name : List.of("fal", "replicate", "runware")) {
            ProviderSettings p = jobProvider("{\"adapter\": \"" + name + "\", \"model\": \"o/m\"}");
            assertThat(p.capabilities().kinds()).as(name).contains(JobKind.IMAGE, JobKind.VIDEO);
        }
        VideoParams withSound = new VideoParams(
                5,
                "720p",
                "16:9",
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                true);
        assertThat(jobProvider("{\"adapter\": \"fal\", \"model\": \"o/m\"}")
                        .capabilities()
                        .media()
                        .video()
                        .whyNot(withSound))
                .isNull();
        assertThat(jobProvider("{\"adapter\": \"runware\", \"model\": \"klingai:5@3\"}")
                        .capabilities()
                        .media()
                        .video()
                        .whyNot(withSound))
                .isEqualTo("audio_unsupported");
        // a video block that says nothing of sound keeps the vendor's answer; one that does wins
        assertThat(jobProvider("""
                        {"adapter": "runware", "model": "klingai:5@3",
                         "capabilities": {"video": {"max_duration_seconds": 10}}}""").capabilities().media().video().whyNot(withSound))
                .isEqualTo("audio_unsupported");
        assertThat(jobProvider("""
                        {"adapter": "runware", "model": "klingai:5@3",
                         "capabilities": {"video": {"audio": true}}}""").capabilities().media().video().whyNot(withSound))
                .isNull();
    }

    @Test
    void everyChatOnlyVendorIsAcceptedTakesItsDefaultsAndCreatesItsAdapter() {
        for (String name : Vendors.chatOnlyNames()) {
            VendorDescriptor vendor = Vendors.named(name).orElseThrow();
            IdemConfig config = load("""
                    {"providers": {"img": {"adapter": "fake", "base_url": "http://127.0.0.1:9"},
                                   "c": {"adapter": "%s", "chat_models": ["m"]}}}""".formatted(name), Map.of());
            ProviderSettings c = config.chat().chatOnlyProviders().get("c");

            assertThat(config.routing().providers()).as(name).containsOnlyKeys("img");
            assertThat(c.adapter()).as(name).isEqualTo(name);
            assertThat(c.baseUrl()).as(name).isEqualTo(vendor.defaults().baseUrl());
            assertThat(c.apiKeyEnv()).as(name).isEqualTo(vendor.defaults().keyVariable());
            assertThat(c.pricing()).as(name).isEqualTo(vendor.pricing());
            assertThat(ChatAdapters.create(c, Optional.empty(), List.of("m"), variable -> null, Redactor.shapesOnly()))
                    .as(name)
                    .isNotNull();
        }
    }

    @Test
    void theVendorDefaultsAreTheOnesConfigurationAlwaysHad() {
        ProviderSettings fal = jobProvider("{\"adapter\": \"fal\"}");
        assertThat(fal.baseUrl()).hasToString("https://queue.fal.run");
        assertThat(fal.apiKeyEnv()).contains("FAL_KEY");
        assertThat(fal.defaultModel()).isEqualTo("fal-ai/flux/schnell");

        ProviderSettings replicate = jobProvider("{\"adapter\": \"replicate\"}");
        assertThat(replicate.baseUrl()).hasToString("https://api.replicate.com");
        assertThat(replicate.apiKeyEnv()).contains("REPLICATE_API_TOKEN");
        assertThat(replicate.defaultModel()).isEqualTo("black-forest-labs/flux-schnell");

        ProviderSettings openai = jobProvider("{\"adapter\": \"openai_images\"}");
        assertThat(openai.baseUrl()).hasToString("https://api.openai.com/v1");
        assertThat(openai.apiKeyEnv()).contains("OPENAI_API_KEY");
        assertThat(openai.defaultModel()).isEqualTo("gpt-image-1");

        ProviderSettings runware = jobProvider("{\"adapter\": \"runware\", \"model\": \"runware:100@1\"}");
        assertThat(runware.baseUrl()).hasToString("https://api.runware.ai/v1");
        assertThat(runware.apiKeyEnv()).contains("RUNWARE_API_KEY");

        ProviderSettings fake = jobProvider("{\"adapter\": \"fake\"}");
        assertThat(fake.baseUrl()).hasToString("http://127.0.0.1:0");
        assertThat(fake.apiKeyEnv()).isEmpty();
        assertThat(fake.defaultModel()).isEqualTo("fake-image-v1");
    }

    @Test
    void aVendorWithoutADefaultModelNeedsOne() {
        assertThatThrownBy(() -> jobProvider("{\"adapter\": \"runware\"}"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("providers.p.model is required for adapter 'runware'");
    }

    @Test
    void aCapabilityKindIsOneOfTheJobKinds() {
        assertThatThrownBy(() -> jobProvider("{\"adapter\": \"fake\", \"capabilities\": {\"kinds\": [\"sound\"]}}"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown kind 'sound'");
        assertThat(jobProvider("{\"adapter\": \"fake\", \"capabilities\": {\"kinds\": [\"video\"]}}")
                        .capabilities()
                        .kinds())
                .containsExactly(io.idem.core.domain.JobKind.VIDEO);
    }

    @Test
    void openAiBaseUrlReplacesTheDefaultOfBothOpenAiVendorsButNotAGivenBaseUrl() {
        Map<String, String> env = Map.of("OPENAI_BASE_URL", "http://proxy.example:8443/v1");
        IdemConfig config = load("""
                {"providers": {"img": {"adapter": "openai_images"},
                               "pinned": {"adapter": "openai_images", "base_url": "https://api.together.xyz/v1"},
                               "fal": {"adapter": "fal"},
                               "chat": {"adapter": "openai_chat", "chat_models": ["gpt-4o-mini"]}}}""", env);

        assertThat(config.routing().providers().get("img").baseUrl()).hasToString("http://proxy.example:8443/v1");
        assertThat(config.routing().providers().get("pinned").baseUrl()).hasToString("https://api.together.xyz/v1");
        assertThat(config.routing().providers().get("fal").baseUrl()).hasToString("https://queue.fal.run");
        assertThat(config.chat().chatOnlyProviders().get("chat").baseUrl()).hasToString("http://proxy.example:8443/v1");
    }

    @Test
    void anUnknownAdapterIsRefusedWithEveryKnownName() {
        assertThatThrownBy(() -> jobProvider("{\"adapter\": \"dalle\"}"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("providers.p.adapter: unknown adapter 'dalle'; known: ")
                .hasMessageContaining(Vendors.jobNames().toString())
                .hasMessageContaining("(chat only: " + Vendors.chatOnlyNames() + ")");
    }

    @Test
    void costPerImageUsdPricesTheProviderPerImage() {
        assertThat(jobProvider("{\"adapter\": \"fake\", \"cost_per_image_usd\": \"0.04\"}")
                        .pricing())
                .isEqualTo(new PricingModel.PerImage(new BigDecimal("0.04")));
        assertThat(jobProvider("{\"adapter\": \"fal\", \"cost_per_image_usd\": 0.003}")
                        .pricing())
                .isEqualTo(new PricingModel.PerImage(new BigDecimal("0.003")));
        assertThat(jobProvider("{\"adapter\": \"fal\"}").pricing()).isEqualTo(PricingModel.PerImage.FREE);
    }

    @Test
    void aBadCostPerImageNamesTheSettingAndTheValue() {
        assertThatThrownBy(() -> jobProvider("{\"adapter\": \"fake\", \"cost_per_image_usd\": \"four cents\"}"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("providers.p.cost_per_image_usd must be a number")
                .hasMessageContaining("four cents");
        assertThatThrownBy(() -> jobProvider("{\"adapter\": \"fake\", \"cost_per_image_usd\": \"-0.04\"}"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("providers.p.cost_per_image_usd")
                .hasMessageContaining("-0.04");
    }

    @Test
    void onlyFakeProvidersTakeSimulateTheDemoIncluded() {
        IdemConfig demo = new ConfigLoader(Map.of()).load(Optional.empty());
        assertThat(demo.routing().providers().values()).allMatch(ProviderSettings::acceptsSimulate);

        IdemConfig config = load("""
                {"providers": {"fake": {"adapter": "fake", "base_url": "http://127.0.0.1:9"},
                               "fal": {"adapter": "fal"}}}""", Map.of());
        assertThat(config.routing().providers().get("fake").acceptsSimulate()).isTrue();
        assertThat(config.routing().providers().get("fal").acceptsSimulate()).isFalse();
    }

    @Test
    void aVendorsOwnSettingIsRefusedOnAnotherVendor() {
        assertThatThrownBy(() -> load("""
                        {"providers": {"a": {"adapter": "fake", "chat_models": ["m"], "answers_file": "/x.yaml"}}}""", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("providers.a.answers_file is only for adapter 'static'");
    }

    @Test
    void eachProviderHonoursTheImageParametersItsVendorForwardsAndAJobNamingAnotherIsRefusedNamingIt() {
        IdemConfig config = load("""
                {"providers": {"img": {"adapter": "openai_images"},
                               "fal": {"adapter": "fal"},
                               "rep": {"adapter": "replicate", "capabilities": {"max_n": 4}},
                               "run": {"adapter": "runware", "model": "runware:100@1"}},
                 "lanes": {"standard": ["img", "fal", "rep", "run"], "cheap": ["fal", "rep", "run"]}}""", Map.of());
        var providers = config.routing().providers();

        assertThat(providers.get("img").capabilities().media().imageParameters())
                .isEqualTo(io.idem.core.domain.ImageParams.ALL);
        assertThat(providers.get("fal").capabilities().media().imageParameters())
                .containsExactlyInAnyOrder("output_format", "provider_options");
        assertThat(providers.get("rep").capabilities().media().imageParameters())
                .containsExactlyInAnyOrder("output_format", "output_compression", "provider_options");
        assertThat(providers.get("run").capabilities().media().imageParameters())
                .containsExactlyInAnyOrder("output_format", "output_compression", "provider_options");

        var requests = new io.idem.server.jobs.JobRequests(config.routing(), name -> "key");
        var spec = requests.parse(
                io.idem.server.http.Json.MAPPER
                        .createObjectNode()
                        .put("prompt", "a fox")
                        .put("quality", "hd"),
                java.util.Set.of());
        assertThat(spec.candidates()).containsExactly("img");
        assertThatThrownBy(() -> requests.parse(
                        io.idem.server.http.Json.MAPPER
                                .createObjectNode()
                                .put("prompt", "a fox")
                                .put("lane", "cheap")
                                .put("style", "vivid"),
                        java.util.Set.of()))
                .isInstanceOfSatisfying(io.idem.server.http.ApiError.class, e -> {
                    assertThat(e.code()).isEqualTo("unsupported_parameter");
                    assertThat(e.getMessage())
                            .contains("provider 'fal' does not support parameter 'style'")
                            .contains("'rep'", "'run'");
                });
    }
}
