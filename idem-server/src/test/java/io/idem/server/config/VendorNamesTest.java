package io.idem.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.providers.Vendors;
import io.idem.providers.vendor.VendorDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The registry is the only list of vendors: no main source outside a vendor's own descriptor spells
 * its name, so no switch, map or set of adapter names can grow beside the registry ({@code
 * VendorsTest} checks that every adapter class is created by a descriptor).
 */
class VendorNamesTest {
    private static final List<Path> MAIN_SOURCES = Stream.of(
                    "idem-core", "idem-postgres", "idem-providers", "idem-server")
            .map(module -> Path.of("..", module, "src", "main", "java"))
            .toList();

    @Test
    void noMainSourceButTheVendorsDescriptorSpellsItsName() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path root : MAIN_SOURCES) {
            assertThat(root).as("run from a module directory").isDirectory();
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(file -> file.toString().endsWith(".java")).forEach(file -> found.addAll(spellings(file)));
            }
        }
        assertThat(found).isEmpty();
    }

    private static List<String> spellings(Path file) {
        String source;
        try {
            source = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> found = new ArrayList<>();
        for (VendorDescriptor vendor : Vendors.ALL) {
            if (source.contains("\"" + vendor.name() + "\"") && !isDescriptorOf(file, source, vendor)) {
                found.add(file + " spells \"" + vendor.name() + "\"");
            }
        }
        return found;
    }

    /** The vendor's descriptor class: the file that defines {@code NAME = "<name>"}. */
    private static boolean isDescriptorOf(Path file, String source, VendorDescriptor vendor) {
        return file.getFileName().toString().endsWith("Vendor.java")
                && source.contains("NAME = \"" + vendor.name() + "\";");
    }
}
