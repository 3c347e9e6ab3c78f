package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every piece stays small enough to read at once: no method of the shipped code (every module's
 * {@code src/main/java}, the benchmarks included) is 60 lines or longer, and no record has more than
 * 10 components (group related ones into a nested record, as {@code JobSpec} and {@code Attempt} do).
 * Read from the sources, with string literals and comments blanked first so braces and parentheses
 * inside them do not count.
 */
class SizeRulesTest {
    static final int MAX_METHOD_LINES = 59;
    static final int MAX_RECORD_COMPONENTS = 10;

    private static final Pattern METHOD = Pattern.compile(
            "^\\s+(?:(?:public|protected|private|static|final|abstract|synchronized|default|native)\\s+)*"
                    + "(?:<[^>]+>\\s+)?(?:[\\w.$\\[\\]]+(?:<.*>)?(?:\\[\\])*\\s+)?(\\w+)\\s*\\(");
    private static final Pattern NOT_A_DECLARATION = Pattern.compile(
            "^\\s*(?:if|for|while|switch|catch|return|new|throw|else|try|do|synchronized|case|yield|assert)\\b");
    private static final Pattern RECORD = Pattern.compile("\\brecord\\s+(\\w+)\\s*(?:<[^>]*>)?\\s*\\(");

    @Test
    void noMethodIsSixtyLinesOrLonger() {
        List<String> tooLong = new ArrayList<>();
        for (Path file : sources()) {
            String[] lines = blanked(read(file)).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                Matcher m = METHOD.matcher(lines[i]);
                if (!m.find() || NOT_A_DECLARATION.matcher(lines[i]).find()) {
                    continue;
                }
                int end = bodyEnd(lines, i);
                if (end >= 0 && end - i + 1 > MAX_METHOD_LINES) {
                    tooLong.add(
                            file.getFileName() + ":" + (i + 1) + " " + m.group(1) + " (" + (end - i + 1) + " lines)");
                }
            }
        }
        assertThat(tooLong)
                .as("methods of %d lines or more", MAX_METHOD_LINES + 1)
                .isEmpty();
    }

    @Test
    void noRecordHasMoreThanTenComponents() {
        List<String> tooWide = new ArrayList<>();
        for (Path file : sources()) {
            String text = blanked(read(file));
            Matcher m = RECORD.matcher(text);
            while (m.find()) {
                int components = components(text, m.end());
                if (components > MAX_RECORD_COMPONENTS) {
                    tooWide.add(file.getFileName() + " " + m.group(1) + " (" + components + " components)");
                }
            }
        }
        assertThat(tooWide)
                .as("records with more than %d components", MAX_RECORD_COMPONENTS)
                .isEmpty();
    }

    @Test
    void theScannerSeesWhatItMeasures() {
        String source = "class A {\n    public static <T> List<T> big(Map<String, T> m) {\n"
                + "        String s = \"}{\";\n".repeat(70)
                + "    }\n    record R(Map<String, String> a, int b, @X(\"(\") String c) {}\n}\n";
        String[] lines = blanked(source).split("\n", -1);
        assertThat(METHOD.matcher(lines[1]).find()).isTrue();
        assertThat(bodyEnd(lines, 1) - 1 + 1).isEqualTo(72);
        Matcher record = RECORD.matcher(blanked(source));
        assertThat(record.find()).isTrue();
        assertThat(components(blanked(source), record.end())).isEqualTo(3);
    }

    /** The line holding the brace that closes the body opened after line {@code from}, or -1 for none. */
    private static int bodyEnd(String[] lines, int from) {
        int depth = 0;
        boolean opened = false;
        for (int i = from; i < lines.length; i++) {
            for (char c : lines[i].toCharArray()) {
                if (!opened && c == ';') {
                    return -1;
                }
                if (c == '{') {
                    depth++;
                    opened = true;
                } else if (c == '}' && opened && --depth == 0) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** How many components the list starting after the opening parenthesis at {@code at} has. */
    private static int components(String text, int at) {
        int parens = 1;
        int angles = 0;
        int commas = 0;
        boolean any = false;
        for (int i = at; i < text.length() && parens > 0; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '(' -> parens++;
                case ')' -> parens--;
                case '<' -> angles++;
                case '>' -> angles--;
                case ',' -> commas += parens == 1 && angles == 0 ? 1 : 0;
                default -> any |= parens == 1 && !Character.isWhitespace(c);
            }
        }
        return any ? commas + 1 : 0;
    }

    /** The source with the insides of comments, strings, text blocks and char literals replaced by spaces. */
    static String blanked(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            String rest2 = source.startsWith("//", i) ? "//" : source.startsWith("/*", i) ? "/*" : "";
            if (rest2.equals("//")) {
                int end = source.indexOf('\n', i);
                i = blank(source, out, i, end < 0 ? source.length() : end);
            } else if (rest2.equals("/*")) {
                int end = source.indexOf("*/", i + 2);
                i = blank(source, out, i, end < 0 ? source.length() : end + 2);
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                out.append('"');
                i = blank(source, out, i + 1, end < 0 ? source.length() : end + 2);
                out.append('"');
                i++;
            } else if (c == '"' || c == '\'') {
                int end = i + 1;
                while (end < source.length() && source.charAt(end) != c) {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                out.append(c);
                i = blank(source, out, i + 1, end);
                out.append(c);
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static int blank(String source, StringBuilder out, int from, int to) {
        for (int i = from; i < to && i < source.length(); i++) {
            out.append(source.charAt(i) == '\n' ? '\n' : ' ');
        }
        return to;
    }

    private static List<Path> sources() {
        Path root = Path.of("").toAbsolutePath().getParent();
        try (Stream<Path> modules = Files.list(root)) {
            List<Path> files = new ArrayList<>();
            for (Path module : modules.filter(p -> Files.isDirectory(p.resolve("src/main/java")))
                    .toList()) {
                try (Stream<Path> walk = Files.walk(module.resolve("src/main/java"))) {
                    walk.filter(p -> p.toString().endsWith(".java")).forEach(files::add);
                }
            }
            assertThat(files).as("sources under " + root).hasSizeGreaterThan(100);
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
