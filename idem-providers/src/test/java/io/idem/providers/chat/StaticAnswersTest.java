package io.idem.providers.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.chat.ChatCall;
import io.idem.core.chat.ChatEvent;
import io.idem.core.chat.ChatMessage;
import io.idem.core.chat.ChatReply;
import io.idem.core.chat.ChatRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaticAnswersTest {
    private static ChatCall ask(String prompt) {
        return new ChatCall(
                new ChatRequest(List.of(new ChatMessage("user", prompt)), "{}", 0),
                "r",
                "static",
                Duration.ofSeconds(1),
                Optional.empty());
    }

    @Test
    void promptsMatchLowerCasedWithWhitespaceCollapsedAndPunctuationTrimmed() {
        assertThat(StaticAnswers.normalize("  What IS   Idem?! ")).isEqualTo("what is idem");
        assertThat(StaticAnswers.normalize("¿Hello…")).isEqualTo("hello");
        assertThat(StaticAnswers.normalize("e-mail me")).isEqualTo("e-mail me");
        assertThat(StaticAnswers.demo().answer("WHAT is\tidem ???"))
                .hasValueSatisfying(a -> assertThat(a).contains("failover gateway"));
    }

    @Test
    void aKnownPromptIsAnsweredAndStillMarkedAsAFallback() {
        var adapter = new StaticChatAdapter(StaticAnswers.demo());
        ChatReply reply = adapter.complete(ask("Hello!"));
        assertThat(reply).isInstanceOfSatisfying(ChatReply.Served.class, served -> {
            assertThat(served.completion().text()).startsWith("Hello!");
            assertThat(served.completion().isFallback()).isTrue();
        });
    }

    @Test
    void anUnknownPromptGetsTheDegradationNotice() {
        var adapter = new StaticChatAdapter(StaticAnswers.demo());
        ChatReply reply = adapter.complete(ask("write me a sonnet about databases"));
        assertThat(reply).isInstanceOfSatisfying(ChatReply.Served.class, served -> {
            assertThat(served.completion().text())
                    .isEqualTo(served.completion().degradationNotice().orElseThrow());
        });
    }

    @Test
    void aStreamSaysTheSameWordByWord() throws Exception {
        var stream = new StaticChatAdapter(StaticAnswers.demo()).stream(ask("hi"));
        StringBuilder text = new StringBuilder();
        while (true) {
            ChatEvent event = stream.next(Duration.ofSeconds(1)).orElseThrow();
            if (event instanceof ChatEvent.Token token) {
                text.append(token.text());
            } else {
                assertThat(event)
                        .isInstanceOfSatisfying(
                                ChatEvent.Finished.class,
                                f -> assertThat(f.degradationNotice()).isPresent());
                break;
            }
        }
        assertThat(text.toString()).startsWith("Hi! The live models");
    }

    @Test
    void answersComeFromJsonOrYamlFiles(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("answers.json");
        Files.writeString(json, "{\"Opening hours?\": \"9 to 5\"}");
        assertThat(StaticAnswers.read(json).answer("opening hours")).contains("9 to 5");
        Path yaml = dir.resolve("answers.yaml");
        Files.writeString(yaml, "answers:\n  'Where are you?': In Berlin.\ndegradation_notice: Degraded.\n");
        StaticAnswers fromYaml = StaticAnswers.read(yaml);
        assertThat(fromYaml.answer("where are you")).contains("In Berlin.");
        assertThat(fromYaml.notice()).isEqualTo("Degraded.");
    }
}
