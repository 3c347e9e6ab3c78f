package io.idem.embedded;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The API is this package; the implementation hides in {@code internal} and the other modules. */
class ApiSurfaceTest {
    private static final JavaClasses EMBEDDED = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.idem.embedded");

    @Test
    void theApiNamesNoServerTypes() {
        noClasses()
                .that()
                .resideInAPackage("io.idem.embedded")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.idem.server..", "io.idem.postgres..", "io.idem.providers..")
                .check(EMBEDDED);
    }

    @Test
    void internalClassesOtherThanTheEntryPointArePackagePrivate() {
        classes()
                .that()
                .resideInAPackage("io.idem.embedded.internal")
                .and()
                .doNotHaveSimpleName("EmbeddedNode")
                .and()
                .doNotHaveSimpleName("Settings")
                .should()
                .notBePublic()
                .check(EMBEDDED);
    }

    @Test
    void everyExceptionOfTheApiExtendsIdemsRoot() {
        classes()
                .that()
                .areAssignableTo(RuntimeException.class)
                .and()
                .resideInAPackage("io.idem.embedded..")
                .should()
                .beAssignableTo(io.idem.core.IdemException.class)
                .check(EMBEDDED);
    }
}
