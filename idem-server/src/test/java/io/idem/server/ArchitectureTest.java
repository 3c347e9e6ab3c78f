package io.idem.server;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The module arrows of DESIGN §8: dependencies point inward only. */
class ArchitectureTest {
    private static final JavaClasses IDEM = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.idem");

    @Test
    void coreDependsOnNothingButTheJdkAndSlf4j() {
        noClasses()
                .that()
                .resideInAPackage("io.idem.core..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("io.idem.core..", "java..", "javax..", "org.slf4j..")
                .check(IDEM);
    }

    @Test
    void postgresAndProvidersDoNotKnowEachOtherOrTheServer() {
        noClasses()
                .that()
                .resideInAPackage("io.idem.postgres..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.idem.providers..", "io.idem.server..")
                .check(IDEM);
        noClasses()
                .that()
                .resideInAPackage("io.idem.providers..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.idem.postgres..", "io.idem.server..")
                .check(IDEM);
    }

    @Test
    void onlyTheCompositionRootNamesPostgres() {
        // Features and the HTTP layer see the stores as core ports; the root picks PostgreSQL.
        noClasses()
                .that()
                .resideInAPackage("io.idem.server..")
                .and()
                .doNotHaveFullyQualifiedName("io.idem.server.IdemServer")
                .and()
                .resideOutsideOfPackage("io.idem.server.wiring..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.idem.postgres..")
                .check(IDEM);
    }

    @Test
    void serverPackagesAreFreeOfCycles() {
        slices().matching("io.idem.server.(*)..").should().beFreeOfCycles().check(IDEM);
    }

    @Test
    void theHttpPackageIsTheBottomOfTheServer() {
        // JSON, errors, auth and route installation know no feature: every feature builds on them.
        noClasses()
                .that()
                .resideInAPackage("io.idem.server.http..")
                .should()
                .dependOnClassesThat(resideInAPackage("io.idem.server..")
                        .and(resideOutsideOfPackage("io.idem.server.http.."))
                        .as("other server packages"))
                .check(IDEM);
    }

    @Test
    void coreLogicReadsTimeOnlyFromAnInjectedClock() {
        noClasses()
                .that()
                .resideInAPackage("io.idem.core..")
                .should()
                .callMethod(java.time.Instant.class, "now")
                .check(IDEM);
    }
}
