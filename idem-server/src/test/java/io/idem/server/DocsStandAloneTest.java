package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The user docs stand alone: every relative link in README.md and docs/ names a file of the
 * repository, and none points outside it.
 */
class DocsStandAloneTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    private static List<Path> docs() throws IOException {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> walk = Files.walk(ROOT.resolve("docs"))) {
            walk.filter(p -> p.toString().endsWith(".md")).forEach(files::add);
        }
        return files;
    }

    @Test
    void everyRelativeLinkNamesAFileInsideTheRepository() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path doc : docs()) {
            Matcher m = LINK.matcher(Files.readString(doc));
            while (m.find()) {
                String target = m.group(1);
                if (target.startsWith("http://")
                        || target.startsWith("https://")
                        || target.startsWith("#")
                        || target.startsWith("mailto:")) {
                    continue;
                }
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                Path resolved = doc.getParent().resolve(file).normalize();
                if (!resolved.startsWith(ROOT) || !Files.exists(resolved)) {
                    broken.add(ROOT.relativize(doc) + " -> " + target);
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void noDocPointsAtFilesOutsideTheRepository() throws IOException {
        for (Path doc : docs()) {
            assertThat(Files.readString(doc)).as(doc.toString()).doesNotContain("../shared", "DESIGN.md");
        }
    }
}
