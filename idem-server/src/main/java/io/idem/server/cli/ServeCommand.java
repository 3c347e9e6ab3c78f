package io.idem.server.cli;

import io.idem.server.IdemServer;
import io.idem.server.config.ConfigException;
import io.idem.server.config.ConfigLoader;
import io.idem.server.config.IdemConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code idem serve}: run a node until SIGTERM/SIGINT, then stop gracefully. */
@Command(name = "serve", description = "Run Idem (embedded database and fake providers unless configured otherwise).")
final class ServeCommand implements Callable<Integer> {
    @Option(names = "--config", description = "Path to idem.yaml (default: ./idem.yaml when present).")
    Path config;

    @Option(names = "--role", description = "api, worker or all (default: all, or IDEM_ROLE).")
    String role;

    @Override
    public Integer call() throws InterruptedException {
        Optional<Path> file = Optional.ofNullable(config);
        if (file.isEmpty() && Files.exists(Path.of("idem.yaml"))) {
            file = Optional.of(Path.of("idem.yaml"));
        }
        var env = new java.util.HashMap<>(System.getenv());
        if (role != null) {
            env.put("IDEM_ROLE", role);
        }
        IdemConfig loaded;
        IdemServer server;
        try {
            loaded = new ConfigLoader(env).load(file);
            server = IdemServer.start(loaded, System.out);
        } catch (ConfigException e) {
            System.err.println("idem: configuration error: " + e.getMessage());
            return 2;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            stopped.countDown();
                        },
                        "idem-shutdown"));
        if (loaded.role().servesApi()) {
            System.out.println("Idem is running at " + server.baseUrl() + "  (Ctrl-C stops it)");
        }
        stopped.await();
        return 0;
    }
}
