package io.idem.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {
    private static IdemConfig load(Map<String, String> env) {
        return new ConfigLoader(env).load(Optional.empty());
    }

    @Test
    void withNothingConfiguredTheDemoHasTwoInProcessFakesInLaneStandard() {
        IdemConfig config = load(Map.of());
        assertThat(config.routing().lanes()).containsEntry("standard", java.util.List.of("primary", "backup"));
        assertThat(config.inProcessFakes()).containsExactlyInAnyOrder("primary", "backup");
        assertThat(config.port()).isEqualTo(8080);
    }

    @Test
    void theDemoKeepsItsBreakersClosedAndItsParkedJobsForTheVisitorButConfiguredProvidersDoNot() {
        IdemConfig demo = load(Map.of());
        assertThat(demo.engine().breaker().failureThreshold()).isEqualTo(ConfigLoader.DEMO_FAILURE_THRESHOLD);
        assertThat(demo.engine().reviewOnly()).containsExactlyInAnyOrder("primary", "backup");
        assertThat(demo.engine().reconcileInterval()).hasSeconds(30);
        assertThat(demo.describe()).contains("reconcile_sweep_leaves=[backup, primary]");

        IdemConfig configured = load(Map.of("PROVIDERS_JSON", """
                {"providers": {"primary": {"adapter": "fake", "base_url": "http://127.0.0.1:9"},
                               "backup": {"adapter": "fake"}}}"""));
        assertThat(configured.engine().breaker().failureThreshold()).isEqualTo(3);
        assertThat(configured.engine().reviewOnly()).isEmpty();
        assertThat(configured.describe()).doesNotContain("reconcile_sweep_leaves");

        IdemConfig demoWithAThreshold = load(Map.of("IDEM_BREAKER_FAILURE_THRESHOLD", "3"));
        assertThat(demoWithAThreshold.engine().breaker().failureThreshold()).isEqualTo(3);
    }

    @Test
    void aBadValueFailsWithTheSettingAndTheValueNamed() {
        assertThatThrownBy(() -> load(Map.of("IDEM_PORT", "eighty")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("IDEM_PORT")
                .hasMessageContaining("eighty");
        assertThatThrownBy(() -> load(Map.of("RECONCILE_INTERVAL_SECONDS", "0")))
                .hasMessageContaining("RECONCILE_INTERVAL_SECONDS")
                .hasMessageContaining("0");
        assertThatThrownBy(() -> load(Map.of("PROVIDERS_JSON", "{\"providers\": {\"p\": {\"adapter\": \"dalle\"}}}")))
                .hasMessageContaining("dalle");
        assertThatThrownBy(() -> load(Map.of(
                        "PROVIDERS_JSON",
                        "{\"providers\": {\"p\": {\"adapter\": \"fake\"}}, \"lanes\": {\"fast\": [\"q\"]}}")))
                .hasMessageContaining("'q'");
        assertThatThrownBy(() -> load(Map.of("PROVIDERS_JSON", "{not json"))).hasMessageContaining("PROVIDERS_JSON");
    }

    @Test
    void jobDeadlinesAndBudgetDeferralAreReadAndCheckedAgainstEachOther() {
        var deferral = load(Map.of(
                        "IDEM_DEFAULT_DEADLINE_SECONDS", "120",
                        "IDEM_MAX_DEADLINE_SECONDS", "3600",
                        "IDEM_DEFER_ON_BUDGET_EXHAUSTED", "true"))
                .engine()
                .deferral();
        assertThat(deferral.defaultDeadline()).isEqualTo(java.time.Duration.ofSeconds(120));
        assertThat(deferral.maxDeadline()).isEqualTo(java.time.Duration.ofSeconds(3600));
        assertThat(deferral.onBudgetExhausted()).isTrue();
        assertThat(load(Map.of()).engine().deferral().onBudgetExhausted()).isFalse();

        assertThatThrownBy(
                        () -> load(Map.of("IDEM_DEFAULT_DEADLINE_SECONDS", "700", "IDEM_MAX_DEADLINE_SECONDS", "600")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("700")
                .hasMessageContaining("600");
        assertThatThrownBy(() -> load(Map.of("IDEM_DEFER_ON_BUDGET_EXHAUSTED", "yes")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("IDEM_DEFER_ON_BUDGET_EXHAUSTED")
                .hasMessageContaining("yes");
    }

    @Test
    void theFileIsReadAndTheEnvironmentWins() throws Exception {
        Path file = Files.createTempFile("idem", ".yaml");
        Files.writeString(file, """
                port: 9000
                openai_wait_seconds: 3
                providers:
                  main: {adapter: fake, base_url: "http://127.0.0.1:9101", api_key_env: FAKE_KEY}
                lanes:
                  fast: [main]
                """);
        IdemConfig config = new ConfigLoader(Map.of("IDEM_PORT", "9001")).load(Optional.of(file));
        assertThat(config.port()).isEqualTo(9001);
        assertThat(config.openaiWait().toSeconds()).isEqualTo(3);
        assertThat(config.routing().defaultLane()).isEqualTo("fast");
        assertThat(config.inProcessFakes()).isEmpty();
    }

    @Test
    void theDescriptionNeverShowsSecrets() {
        IdemConfig config = load(Map.of(
                "IDEM_SECRET", "super-secret-value-123",
                "IDEM_BOOTSTRAP_KEY", "idem_bootstrap_secret_1",
                "IDEM_DATABASE_URL", "postgresql://idem:hunter2@db.example:5432/idem"));
        assertThat(config.describe())
                .doesNotContain("super-secret-value-123", "idem_bootstrap_secret_1", "hunter2")
                .contains("[redacted]");
        assertThat(config.toString()).isEqualTo(config.describe());
    }

    @Test
    void everySecretValueIsKnownForRedactionIncludingChatOnlyProviderKeys() {
        IdemConfig config = load(Map.of(
                "PROVIDERS_JSON",
                """
                {"providers": {
                   "img": {"adapter": "fal", "base_url": "http://127.0.0.1:9"},
                   "gpt": {"adapter": "openai_chat", "api_key_env": "GPT_KEY", "chat_models": ["gpt-4o-mini"]},
                   "unset": {"adapter": "replicate", "base_url": "http://127.0.0.1:9"}}}""",
                "FAL_KEY",
                "fal-key-value-0001",
                "GPT_KEY",
                "gpt-key-value-0002",
                "UNRELATED",
                "not-a-credential",
                "IDEM_SECRET",
                "super-secret-value-123",
                "IDEM_BOOTSTRAP_KEY",
                "idem_bootstrap_secret_1",
                "IDEM_DATABASE_URL",
                "jdbc:postgresql://db.example:5432/idem?user=idem&password=hunter%2B2"));

        assertThat(config.credentials())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("FAL_KEY", "fal-key-value-0001", "GPT_KEY", "gpt-key-value-0002"));
        assertThat(config.secretValues().values())
                .contains(
                        "fal-key-value-0001",
                        "gpt-key-value-0002",
                        "super-secret-value-123",
                        "idem_bootstrap_secret_1",
                        "hunter%2B2",
                        "hunter+2")
                .doesNotContain("not-a-credential");
    }

    @Test
    void trustedProxiesAreAddressesAndNetworksFromTheFileOrTheEnvironment() throws Exception {
        assertThat(load(Map.of()).trustedProxies().networks()).isEmpty();
        IdemConfig fromEnv = load(Map.of("IDEM_TRUSTED_PROXIES", " 10.0.0.0/8, 127.0.0.1 ,fd00::/8"));
        assertThat(fromEnv.trustedProxies().networks())
                .extracting(Object::toString)
                .containsExactly("10.0.0.0/8", "127.0.0.1/32", "fd00:0:0:0:0:0:0:0/8");
        assertThat(fromEnv.describe()).contains("trusted_proxies=[10.0.0.0/8, 127.0.0.1/32");

        Path file = Files.createTempFile("idem", ".yaml");
        Files.writeString(file, "trusted_proxies: [192.168.1.0/24, \"::1\"]\n");
        assertThat(new ConfigLoader(Map.of())
                        .load(Optional.of(file))
                        .trustedProxies()
                        .trusts(java.net.InetAddress.ofLiteral("192.168.1.77")))
                .isTrue();
        Files.writeString(file, "trusted_proxies: \"192.168.1.0/24\"\n");
        assertThat(new ConfigLoader(Map.of("IDEM_TRUSTED_PROXIES", "10.1.2.3"))
                        .load(Optional.of(file))
                        .trustedProxies()
                        .networks())
                .extracting(Object::toString)
                .containsExactly("10.1.2.3/32");
    }

    @Test
    void aBadTrustedProxyIsQuotedAndNeverLookedUpAsAName() {
        for (String bad : new String[] {"10.0.0.300", "10.0.0.1/8", "10.0.0.0/33", "proxy.example", "10.0.0.0/x"}) {
            assertThatThrownBy(() -> load(Map.of("IDEM_TRUSTED_PROXIES", "127.0.0.1," + bad)))
                    .as(bad)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("IDEM_TRUSTED_PROXIES")
                    .hasMessageContaining("'" + bad + "'");
        }
    }

    @Test
    void aUsageKeyIsNamedLikeTheCallKeyAndItsValueIsAmongTheSecrets() {
        IdemConfig config = load(Map.of(
                "PROVIDERS_JSON",
                """
                {"providers": {"openai": {"adapter": "openai_images", "usage_key_env": "OPENAI_ADMIN_KEY"}},
                 "lanes": {"standard": ["openai"]}}""",
                "OPENAI_API_KEY",
                "sk-calls-0123456789",
                "OPENAI_ADMIN_KEY",
                "sk-admin-0123456789"));
        assertThat(config.routing().providers().get("openai").usageKeyEnv()).contains("OPENAI_ADMIN_KEY");
        assertThat(config.credentials()).containsEntry("OPENAI_ADMIN_KEY", "sk-admin-0123456789");
        assertThat(config.secretValues().values()).contains("sk-admin-0123456789");
    }

    @Test
    void theWaitFor100ContinueIsReadFromTheFileOrTheEnvironmentAndChatAsksPerProvider() throws Exception {
        Path file = Files.createTempFile("idem", ".yaml");
        Files.writeString(file, """
                http:
                  expect_continue_timeout_ms: 250
                providers:
                  img: {adapter: fake, base_url: "http://127.0.0.1:9101", chat_expect_continue: false,
                        chat_models: [fake-chat]}
                  gpt: {adapter: openai_chat, api_key_env: OPENAI_KEY, chat_expect_continue: true,
                        chat_models: {gpt-4o-mini: {model: gpt-4o-mini}}}
                """);
        IdemConfig config = new ConfigLoader(Map.of()).load(Optional.of(file));
        var img = config.routing().providers().get("img").expectContinue();
        assertThat(img.timeout()).isEqualTo(java.time.Duration.ofMillis(250));
        assertThat(img.chat()).contains(false);
        var gpt = config.chat().chatOnlyProviders().get("gpt").expectContinue();
        assertThat(gpt.timeout()).isEqualTo(java.time.Duration.ofMillis(250));
        assertThat(gpt.chat()).contains(true);

        ConfigLoader loader = new ConfigLoader(Map.of("IDEM_HTTP_EXPECT_CONTINUE_TIMEOUT_MS", "1500"));
        IdemConfig byEnvironment = loader.load(Optional.of(file));
        assertThat(byEnvironment
                        .routing()
                        .providers()
                        .get("img")
                        .expectContinue()
                        .timeout())
                .isEqualTo(java.time.Duration.ofMillis(1500));
        assertThat(loader.effective())
                .anySatisfy(setting -> assertThat(setting.path()).isEqualTo("http.expect_continue_timeout_ms"));

        IdemConfig defaults = load(Map.of());
        assertThat(defaults.routing().providers().get("primary").expectContinue())
                .isEqualTo(io.idem.core.provider.ProviderSettings.ExpectContinue.DEFAULT);
    }

    @Test
    void aBadWaitFor100ContinueOrChatSwitchIsRefusedByName() {
        assertThatThrownBy(() -> load(Map.of("IDEM_HTTP_EXPECT_CONTINUE_TIMEOUT_MS", "0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("IDEM_HTTP_EXPECT_CONTINUE_TIMEOUT_MS");
        assertThatThrownBy(() -> load(Map.of(
                        "PROVIDERS_JSON",
                        "{\"providers\": {\"p\": {\"adapter\": \"fake\", \"chat_expect_continue\": \"yes\"}}}")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("providers.p.chat_expect_continue");
    }
}
