package io.idem.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.idem.core.chat.ChatAdapter;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.text.Redactor;
import io.idem.providers.chat.OllamaChatAdapter;
import io.idem.providers.chat.OllamaVendor;
import io.idem.providers.chat.OpenAiChatAdapter;
import io.idem.providers.chat.OpenAiChatVendor;
import io.idem.providers.chat.StaticVendor;
import io.idem.providers.fake.FakeVendor;
import io.idem.providers.fal.FalAdapter;
import io.idem.providers.fal.FalVendor;
import io.idem.providers.openai.OpenAiImagesAdapter;
import io.idem.providers.openai.OpenAiImagesVendor;
import io.idem.providers.replicate.ReplicateAdapter;
import io.idem.providers.replicate.ReplicateVendor;
import io.idem.providers.runware.RunwareAdapter;
import io.idem.providers.runware.RunwareVendor;
import io.idem.providers.vendor.VendorDefaults;
import io.idem.providers.vendor.VendorDescriptor;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The registry: one descriptor per vendor, unique names, the vendors' own defaults, working factories. */
class VendorsTest {
    @Test
    void theRegistryIsTheClosedSetOfAdapterNames() {
        assertThat(Vendors.ALL)
                .extracting(VendorDescriptor::name)
                .containsExactly(
                        "fake",
                        "openai_images",
                        "fal",
                        "replicate",
                        "runware",
                        "kling",
                        "veo",
                        "openai_chat",
                        "ollama",
                        "static");
        assertThat(Vendors.jobNames())
                .containsExactly("fake", "openai_images", "fal", "replicate", "runware", "kling", "veo");
        assertThat(Vendors.chatNames()).containsExactly("fake", "openai_chat", "ollama", "static");
        assertThat(Vendors.chatOnlyNames()).containsExactly("openai_chat", "ollama", "static");
        assertThat(Vendors.named("dalle")).isEmpty();
    }

    @Test
    void namesAreUnique() {
        assertThat(Vendors.ALL.stream().map(VendorDescriptor::name).distinct()).hasSameSizeAs(Vendors.ALL);
        Vendors.ALL.forEach(vendor -> assertThat(Vendors.named(vendor.name())).contains(vendor));
    }

    /** Vendor → its default base URL constant, key variable, default model (the values config used before). */
    static Stream<Arguments> defaults() {
        return Stream.of(
                Arguments.of(FakeVendor.DESCRIPTOR, FakeVendor.IN_PROCESS, "http://127.0.0.1:0", null, "fake-image-v1"),
                Arguments.of(
                        OpenAiImagesVendor.DESCRIPTOR,
                        OpenAiImagesAdapter.DEFAULT_BASE_URL,
                        "https://api.openai.com/v1",
                        "OPENAI_API_KEY",
                        "gpt-image-1"),
                Arguments.of(
                        FalVendor.DESCRIPTOR,
                        FalAdapter.DEFAULT_BASE_URL,
                        "https://queue.fal.run",
                        "FAL_KEY",
                        "fal-ai/flux/schnell"),
                Arguments.of(
                        ReplicateVendor.DESCRIPTOR,
                        ReplicateAdapter.DEFAULT_BASE_URL,
                        "https://api.replicate.com",
                        "REPLICATE_API_TOKEN",
                        "black-forest-labs/flux-schnell"),
                Arguments.of(
                        RunwareVendor.DESCRIPTOR,
                        RunwareAdapter.DEFAULT_BASE_URL,
                        "https://api.runware.ai/v1",
                        "RUNWARE_API_KEY",
                        null),
                Arguments.of(
                        OpenAiChatVendor.DESCRIPTOR,
                        OpenAiChatAdapter.DEFAULT_BASE_URL,
                        "https://api.openai.com/v1",
                        "OPENAI_API_KEY",
                        null),
                Arguments.of(
                        OllamaVendor.DESCRIPTOR,
                        OllamaChatAdapter.DEFAULT_BASE_URL,
                        "http://127.0.0.1:11434",
                        null,
                        null),
                Arguments.of(
                        io.idem.providers.kling.KlingVendor.DESCRIPTOR,
                        io.idem.providers.kling.KlingAdapter.DEFAULT_BASE_URL,
                        "https://api-singapore.klingai.com",
                        "KLING_ACCESS_KEY",
                        "kling-v2-6"),
                Arguments.of(
                        io.idem.providers.veo.VeoVendor.DESCRIPTOR,
                        io.idem.providers.veo.VeoAdapter.DEFAULT_BASE_URL,
                        "https://generativelanguage.googleapis.com",
                        "GEMINI_API_KEY",
                        null),
                Arguments.of(StaticVendor.DESCRIPTOR, StaticVendor.NOWHERE, "http://127.0.0.1:0", null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("defaults")
    void defaultsAreTheVendorPackagesOwnConstants(
            VendorDescriptor vendor, URI packageConstant, String baseUrl, String keyVariable, String model) {
        VendorDefaults defaults = vendor.defaults();

        assertThat(defaults.baseUrl()).isEqualTo(packageConstant).hasToString(baseUrl);
        assertThat(defaults.keyVariable()).isEqualTo(Optional.ofNullable(keyVariable));
        assertThat(defaults.model()).isEqualTo(Optional.ofNullable(model));
    }

    @Test
    void everyAdapterClassIsCreatedByADescriptor() {
        Set<String> adapterClasses = new HashSet<>();
        new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.idem.providers")
                        .stream()
                        .filter(VendorsTest::isVendorAdapter)
                        .forEach(c -> adapterClasses.add(c.getName()));

        Set<String> created = new HashSet<>();
        for (VendorDescriptor vendor : Vendors.ALL) {
            // poll and cancel on: the adapter itself, not the limiter around it
            ProviderSettings settings = settings(vendor.name());
            if (vendor.jobs().isPresent()) {
                created.add(Adapters.create(
                                settings, variable -> null, Redactor.shapesOnly(), java.time.InstantSource.system())
                        .getClass()
                        .getName());
            }
            if (vendor.chat().isPresent()) {
                created.add(ChatAdapters.create(
                                settings, Optional.empty(), List.of("m"), variable -> null, Redactor.shapesOnly())
                        .getClass()
                        .getName());
            }
        }
        assertThat(adapterClasses).hasSize(11);
        assertThat(created).containsExactlyInAnyOrderElementsOf(adapterClasses);
    }

    /** A public adapter class (package-private wrappers such as the poll/cancel limiter are no vendor). */
    private static boolean isVendorAdapter(JavaClass c) {
        return c.getModifiers().contains(JavaModifier.PUBLIC)
                && !c.getModifiers().contains(JavaModifier.ABSTRACT)
                && !c.isInterface()
                && (c.isAssignableTo(ProviderAdapter.class) || c.isAssignableTo(ChatAdapter.class));
    }

    @Test
    void onlyTheOpenAiVendorsReadOpenAiBaseUrl() {
        Map<String, String> env = Map.of("OPENAI_BASE_URL", "http://proxy.example/v1");

        Vendors.ALL.forEach(vendor -> assertThat(vendor.defaults().baseUrl(env::get))
                .as(vendor.name())
                .isEqualTo(
                        List.of("openai_images", "openai_chat").contains(vendor.name())
                                ? "http://proxy.example/v1"
                                : vendor.defaults().baseUrl().toString()));
    }

    @Test
    void onlyTheFakeVendorTakesSimulateAndRunsInProcess() {
        Vendors.ALL.forEach(vendor -> {
            boolean fake = vendor == FakeVendor.DESCRIPTOR;
            assertThat(vendor.capabilities().simulate()).as(vendor.name()).isEqualTo(fake);
            assertThat(vendor.defaults().inProcess()).as(vendor.name()).isEqualTo(fake);
        });
    }

    @Test
    void imageVendorsPricePerImageVideoOnlyVendorsPerSecondAndChatOnlyVendorsPerToken() {
        Vendors.ALL.forEach(vendor -> assertThat(vendor.pricing())
                .as(vendor.name())
                .isEqualTo(
                        vendor.chatOnly()
                                ? PricingModel.PerToken.FREE
                                : vendor.capabilities()
                                                .kinds()
                                                .equals(java.util.Set.of(io.idem.core.domain.JobKind.VIDEO))
                                        ? new PricingModel.PerOutputSecond(java.math.BigDecimal.ZERO)
                                        : PricingModel.PerImage.FREE));
    }

    @Test
    void anAdapterWithoutTheAskedSideIsRefusedWithTheKnownNames() {
        assertThatThrownBy(() -> Adapters.create(settings("ollama"), java.time.InstantSource.system()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown adapter 'ollama'")
                .hasMessageContaining("[fake, openai_images, fal, replicate, runware, kling, veo]");
        assertThatThrownBy(() -> ChatAdapters.create(
                        settings("fal"), Optional.empty(), List.of(), variable -> null, Redactor.shapesOnly()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'fal' has no chat side")
                .hasMessageContaining("[fake, openai_chat, ollama, static]");
    }

    @Test
    void aDescriptorMustCreateSomething() {
        VendorDescriptor fal = FalVendor.DESCRIPTOR;

        assertThatThrownBy(() -> new VendorDescriptor(
                        "nothing",
                        fal.defaults(),
                        fal.capabilities(),
                        fal.pricing(),
                        Set.of(),
                        Optional.empty(),
                        Optional.empty()))
                .hasMessageContaining("'nothing' creates no adapter");
        assertThatThrownBy(() -> VendorDescriptor.jobs(
                        "Bad Name",
                        fal.defaults(),
                        fal.capabilities(),
                        fal.pricing(),
                        fal.jobs().orElseThrow()))
                .hasMessageContaining("'Bad Name'");
    }

    private static ProviderSettings settings(String adapter) {
        return new ProviderSettings(
                "p",
                adapter,
                URI.create("http://127.0.0.1:9"),
                Optional.empty(),
                "m",
                Map.of(),
                Duration.ofSeconds(1),
                BigDecimal.ZERO,
                true);
    }
}
