package io.idem.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.idem.core.time.Ticker;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Wall time is read in one place: the composition root creates the clock and hands it on, so a
 * test can drive every time-dependent rule with a settable one (idem-testkit's ManualClock). Calls
 * and method references ({@code Clock::systemUTC}) both count as reads.
 */
class TimeRulesTest {
    private static final JavaClasses IDEM = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("io.idem");

    /**
     * The composition root (the classes directly in {@code io.idem.server}: the node's wiring and
     * its maintenance timers) and the CLI; the benchmarks; the fake vendor, a stand-in for a
     * vendor's own servers with their own clock. Vendor adapters are handed the node's clock by
     * their descriptors' factories ({@code JobAdapterFactory.create}).
     */
    private static final DescribedPredicate<JavaClass> MAY_READ_WALL_TIME = JavaClass.Predicates.resideInAnyPackage(
            "io.idem.server", "io.idem.server.cli..", "io.idem.bench..", "io.idem.providers.fake..");

    private static final List<DescribedPredicate<JavaAccess<?>>> WALL_CLOCK_READS = List.of(
            read(System.class, "currentTimeMillis"),
            read(Instant.class, "now"),
            read(InstantSource.class, "system"),
            read(Clock.class, "systemUTC"),
            read(Clock.class, "systemDefaultZone"),
            read(LocalDate.class, "now"),
            read(LocalDateTime.class, "now"),
            read(OffsetDateTime.class, "now"),
            read(ZonedDateTime.class, "now"));

    /** A call of, or a reference to, {@code owner.method()} without arguments ({@code now(clock)} is fine). */
    private static DescribedPredicate<JavaAccess<?>> read(Class<?> owner, String method) {
        return DescribedPredicate.describe(
                owner.getSimpleName() + "." + method + "()",
                access -> access.getTarget() instanceof AccessTarget.CodeUnitAccessTarget target
                        && target.getOwner().isEquivalentTo(owner)
                        && target.getName().equals(method)
                        && target.getRawParameterTypes().isEmpty());
    }

    @Test
    void nothingElseReadsTheSystemClock() {
        noClasses()
                .that(DescribedPredicate.not(MAY_READ_WALL_TIME))
                .should()
                .accessTargetWhere(DescribedPredicate.or(WALL_CLOCK_READS))
                .check(IDEM);
    }

    /** Core measures elapsed time on an injected {@link Ticker}, so tests drive its windows too. */
    @Test
    void coreMeasuresElapsedTimeOnlyThroughTheTicker() {
        noClasses()
                .that()
                .resideInAPackage("io.idem.core..")
                .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(Ticker.class)))
                .should()
                .accessTargetWhere(read(System.class, "nanoTime"))
                .check(IDEM);
    }
}
