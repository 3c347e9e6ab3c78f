package io.idem.providers.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Answers to frequent prompts, read once from a JSON or YAML file: a mapping of prompt → answer,
 * or {@code {answers: {prompt: answer}, degradation_notice: "…"}}. Prompts match after {@link
 * #normalize}: lower-case, whitespace collapsed, punctuation trimmed at both ends. Immutable.
 */
public final class StaticAnswers {
    /** What the static tier says when it has no answer, and why its answers are a fallback. */
    public static final String DEFAULT_NOTICE =
            "The live models are unavailable right now; this answer comes from Idem's static fallback.";

    static final String DEMO_RESOURCE = "/io/idem/providers/chat/demo-answers.yaml";
    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final Pattern EDGES = Pattern.compile("^[\\p{P}\\p{S}\\s]+|[\\p{P}\\p{S}\\s]+$");

    private final Map<String, String> answers;
    private final String notice;

    StaticAnswers(Map<String, String> answers, String notice) {
        Map<String, String> normalized = new HashMap<>();
        answers.forEach((prompt, answer) -> normalized.putIfAbsent(normalize(prompt), answer));
        this.answers = Map.copyOf(normalized);
        this.notice = notice;
    }

    /** The prompt as it is matched. */
    public static String normalize(String prompt) {
        String lower = prompt.toLowerCase(Locale.ROOT);
        return EDGES.matcher(SPACES.matcher(lower).replaceAll(" ")).replaceAll("");
    }

    /** Reads a file; {@code .json} is JSON, anything else YAML (a superset). */
    public static StaticAnswers read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString().toLowerCase(Locale.ROOT).endsWith(".json"), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the static answers file " + file, e);
        }
    }

    /** The small answers file built in for the demo. */
    public static StaticAnswers demo() {
        try (InputStream in = StaticAnswers.class.getResourceAsStream(DEMO_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the demo answers are missing from the build: " + DEMO_RESOURCE);
            }
            return parse(in, false, DEMO_RESOURCE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the demo answers", e);
        }
    }

    private static StaticAnswers parse(InputStream in, boolean json, String where) throws IOException {
        ObjectMapper mapper = json ? new ObjectMapper() : new ObjectMapper(new YAMLFactory());
        JsonNode root = mapper.readTree(in);
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(where + " must hold a mapping of prompt to answer");
        }
        JsonNode table = root.has("answers") && root.get("answers").isObject() ? root.get("answers") : root;
        String notice = root.path("degradation_notice").isTextual()
                ? root.path("degradation_notice").asText()
                : DEFAULT_NOTICE;
        Map<String, String> answers = new HashMap<>();
        table.fields().forEachRemaining(entry -> {
            if (table == root && entry.getKey().equals("degradation_notice")) {
                return;
            }
            if (!entry.getValue().isTextual()) {
                throw new IllegalArgumentException(
                        where + ": the answer to '" + entry.getKey() + "' must be text, was " + entry.getValue());
            }
            answers.put(entry.getKey(), entry.getValue().asText());
        });
        return new StaticAnswers(answers, notice);
    }

    public Optional<String> answer(String prompt) {
        return Optional.ofNullable(answers.get(normalize(prompt)));
    }

    public String notice() {
        return notice;
    }

    public int size() {
        return answers.size();
    }
}
