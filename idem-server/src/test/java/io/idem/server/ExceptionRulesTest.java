package io.idem.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.idem.core.IdemException;
import org.junit.jupiter.api.Test;

/** One unchecked root: every unchecked exception Idem defines extends {@link IdemException}. */
class ExceptionRulesTest {
    private static final JavaClasses IDEM = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.idem");

    @Test
    void everyUncheckedExceptionOfIdemExtendsTheOneRoot() {
        classes()
                .that()
                .areAssignableTo(RuntimeException.class)
                .and()
                .resideInAPackage("io.idem..")
                .should()
                .beAssignableTo(IdemException.class)
                .check(IDEM);
    }
}
