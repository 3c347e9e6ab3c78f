package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.core.domain.JobEventType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The job trace is one closed set, in Java, in the SQL that writes it and in the table. */
class JobEventTypesTest {
    private static final Pattern LITERAL = Pattern.compile("'([a-z_]+\\.[a-z_]+)'");
    private static final String INSERT = "INSERT INTO job_events";

    private static Set<String> wireNames() {
        return Arrays.stream(JobEventType.values())
                .map(JobEventType::wire)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void everyTypeTheStoresWriteIsInTheEnum() throws IOException {
        Set<String> written = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/io/idem/postgres"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String text = Files.readString(file);
                // every dotted literal in an INSERT INTO job_events statement (up to its text block's end)
                for (int at = text.indexOf(INSERT); at >= 0; at = text.indexOf(INSERT, at + 1)) {
                    int end = text.indexOf("\"\"\"", at);
                    Matcher m = LITERAL.matcher(text.substring(at, end < 0 ? text.length() : end));
                    while (m.find()) {
                        written.add(m.group(1));
                    }
                }
            }
        }
        assertThat(written).isNotEmpty();
        assertThat(wireNames()).containsAll(written);
    }

    /** The newest migration that (re)defines the table's check of event types. */
    private static String lastTypeCheck() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            List<Path> defining = files.filter(f -> {
                        try {
                            return Files.readString(f).contains("ADD CONSTRAINT job_events_type_known");
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .sorted(Comparator.comparingInt(JobEventTypesTest::version))
                    .toList();
            return Files.readString(defining.getLast());
        }
    }

    private static int version(Path migration) {
        String name = migration.getFileName().toString();
        return Integer.parseInt(name.substring(1, name.indexOf("__")));
    }

    @Test
    void theTableAcceptsExactlyTheEnum() throws IOException {
        String migration = lastTypeCheck();
        Set<String> allowed = new TreeSet<>();
        Matcher m = LITERAL.matcher(migration);
        while (m.find()) {
            allowed.add(m.group(1));
        }
        assertThat(allowed).isEqualTo(wireNames());
    }

    @Test
    void theTableRefusesATypeOutsideTheSet() {
        try (Database db = TestDatabases.fresh(2)) {
            assertThatThrownBy(() -> db.withConnection(c -> {
                        try (var ps = c.prepareStatement(
                                "INSERT INTO job_events (job_id, type, actor, detail, at) VALUES (?, 'job.exploded', 'test', '{}', now())")) {
                            ps.setObject(1, UUID.randomUUID());
                            return ps.executeUpdate();
                        }
                    }))
                    .hasRootCauseInstanceOf(SQLException.class);
        }
    }

    @Test
    void wireNamesReadBack() {
        for (JobEventType type : JobEventType.values()) {
            assertThat(JobEventType.fromWire(type.wire())).isSameAs(type);
        }
        assertThatThrownBy(() -> JobEventType.fromWire("job.exploded")).isInstanceOf(IllegalArgumentException.class);
    }
}
