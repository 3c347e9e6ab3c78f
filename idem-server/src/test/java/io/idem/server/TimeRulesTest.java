package io.idem.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

/**
 * Wall time is read in one place: the composition root creates the clock and hands it on, so a
 * test can drive every time-dependent rule with a settable one.
 */
class TimeRulesTest {
    private static final JavaClasses IDEM = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.idem");

    /**
     * The composition root and the CLI; the benchmarks; the fake vendor, a stand-in for a vendor's
     * own servers with their own clock; and the vendor adapters' convenience constructors (kept for
     * tests and embedding; the node passes its clock through the factory's callers).
     */
    private static final String[] MAY_READ_WALL_TIME = {
        "io.idem.server",
        "io.idem.server.cli..",
        "io.idem.bench..",
        "io.idem.providers.fake..",
        "io.idem.providers.fal..",
        "io.idem.providers.replicate..",
        "io.idem.providers.openai..",
        "io.idem.providers.runware.."
    };

    @Test
    void nothingElseReadsTheSystemClock() {
        noClasses()
                .that()
                .resideOutsideOfPackages(MAY_READ_WALL_TIME)
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(Instant.class, "now")
                .orShould()
                .callMethod(InstantSource.class, "system")
                .orShould()
                .callMethod(Clock.class, "systemUTC")
                .orShould()
                .callMethod(Clock.class, "systemDefaultZone")
                .check(IDEM);
    }
}
