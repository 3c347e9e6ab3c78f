package io.idem.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.core.chat.UnconfirmedPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chat side of the configuration: chat models on providers, chat-only providers, lane policies. */
class ChatConfigTest {
    private static IdemConfig load(String providersJson) {
        return new ConfigLoader(Map.of("PROVIDERS_JSON", providersJson)).load(Optional.empty());
    }

    @Test
    void theDemoOffersTwoFakeChatModelsAndAStaticTierLast() {
        IdemConfig config = new ConfigLoader(Map.of()).load(Optional.empty());
        assertThat(config.chat().models().keySet()).containsExactly("fake-chat-a", "fake-chat-b", "static");
        assertThat(config.chat().model("fake-chat-a").orElseThrow().provider()).isEqualTo("primary");
        assertThat(config.chat().model("fake-chat-b").orElseThrow().provider()).isEqualTo("backup");
        assertThat(config.chat().chatOnlyProviders()).containsOnlyKeys("static");
        assertThat(config.routing().providers())
                .as("jobs never see the static tier")
                .doesNotContainKey("static");
        assertThat(config.chat().unconfirmed("standard")).isEqualTo(UnconfirmedPolicy.FAILOVER);
        assertThat(config.describe()).contains("chat_model.fake-chat-a=primary");
    }

    @Test
    void chatOnlyProvidersStayOutOfJobRoutingAndTakeTheirDefaults() {
        IdemConfig config = load("""
                {"providers": {
                   "img": {"adapter": "fake", "base_url": "http://127.0.0.1:9"},
                   "gpt": {"adapter": "openai_chat", "chat_models": {"gpt-mini": {"model": "gpt-4o-mini",
                           "input_usd_per_1m": 0.15, "output_usd_per_1m": 0.6}}},
                   "local": {"adapter": "ollama", "chat_models": ["llama3.2"]},
                   "canned": {"adapter": "static", "chat_models": ["static"]}},
                 "lanes": {"standard": ["img"], "careful": {"providers": ["img"], "unconfirmed": "stop"}}}""");
        assertThat(config.routing().providers()).containsOnlyKeys("img");
        assertThat(config.chat().chatOnlyProviders()).containsOnlyKeys("gpt", "local", "canned");
        assertThat(config.chat().chatOnlyProviders().get("gpt").baseUrl().toString())
                .isEqualTo("https://api.openai.com/v1");
        assertThat(config.chat().chatOnlyProviders().get("gpt").apiKeyEnv()).contains("OPENAI_API_KEY");
        assertThat(config.chat().chatOnlyProviders().get("local").baseUrl().toString())
                .isEqualTo("http://127.0.0.1:11434");
        assertThat(config.chat().model("gpt-mini").orElseThrow().vendorModel()).isEqualTo("gpt-4o-mini");
        assertThat(config.chat().model("gpt-mini").orElseThrow().outputUsdPer1M())
                .isEqualByComparingTo("0.6");
        assertThat(config.chat().unconfirmed("careful")).isEqualTo(UnconfirmedPolicy.STOP);
        assertThat(config.chat().unconfirmed("standard")).isEqualTo(UnconfirmedPolicy.FAILOVER);
    }

    @Test
    void aChatModelMayNameItsContextWindow() {
        IdemConfig config = load("""
                {"providers": {"a": {"adapter": "fake", "chat_models": {
                   "big": {"model": "big", "context_window": 128000}, "plain": {"model": "plain"}}}}}""");
        assertThat(config.chat().model("big").orElseThrow().contextWindow()).hasValue(128_000);
        assertThat(config.chat().model("plain").orElseThrow().contextWindow()).isEmpty();
        for (String bad : List.of("0", "-5", "\"lots\"", "1.5")) {
            assertThatThrownBy(() -> load("""
                    {"providers": {"a": {"adapter": "fake", "chat_models": {"m": {"model": "m", "context_window": %s}}}}}""".formatted(bad)))
                    .hasMessageContaining("providers.a.chat_models.m.context_window");
        }
    }

    @Test
    void badChatSettingsFailNamingTheSetting(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> load("{\"providers\": {\"f\": {\"adapter\": \"fal\", \"chat_models\": [\"x\"]}}}"))
                .hasMessageContaining("providers.f.chat_models")
                .hasMessageContaining("no chat side");
        assertThatThrownBy(() ->
                        load("{\"providers\": {\"img\": {\"adapter\": \"fake\"}, \"o\": {\"adapter\": \"ollama\"}}}"))
                .hasMessageContaining("providers.o.chat_models is required");
        assertThatThrownBy(() -> load("""
                {"providers": {"a": {"adapter": "fake", "chat_models": ["m"]},
                               "b": {"adapter": "fake", "chat_models": ["m"]}}}""")).hasMessageContaining("'m' is already served by provider 'a'");
        assertThatThrownBy(() -> load("""
                {"providers": {"a": {"adapter": "fake", "chat_models": {"m": {"model": "x", "input_usd_per_1m": -1}}}}}""")).hasMessageContaining("input_usd_per_1m");
        assertThatThrownBy(() -> load("""
                {"providers": {"a": {"adapter": "fake"}}, "lanes": {"standard": {"providers": ["a"], "unconfirmed": "maybe"}}}"""))
                .hasMessageContaining("lanes.standard.unconfirmed")
                .hasMessageContaining("maybe");
        assertThatThrownBy(() -> load("""
                {"providers": {"a": {"adapter": "fake"}, "s": {"adapter": "static", "chat_models": ["s"],
                               "answers_file": "/nope/answers.yaml"}}}""")).hasMessageContaining("providers.s.answers_file");
        Path answers = dir.resolve("answers.yaml");
        Files.writeString(answers, "hello: Hi.\n");
        IdemConfig ok = load("""
                {"providers": {"a": {"adapter": "fake"}, "s": {"adapter": "static", "chat_models": ["s"],
                               "answers_file": "%s"}}}""".formatted(answers));
        assertThat(ok.chat().answersFiles()).containsEntry("s", answers.toString());
    }
}
