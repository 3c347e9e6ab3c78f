package io.idem.server.cli;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code idem health}: whether a running node answers, as an exit code (0 up, 1 not), for container
 * health checks (an OCI image cannot declare one, so compose files and orchestrators run this).
 */
@Command(
        name = "health",
        description = "Ask a running node whether it is up: exit 0 if it answers 200, 1 if not (no key needed).")
final class HealthCommand implements Callable<Integer> {
    @Mixin
    ServerConnection server = new ServerConnection();

    @Option(
            names = "--ready",
            description = "Ask GET /readyz (the node reaches its database) instead of GET /healthz (it answers).")
    boolean ready;

    @Option(
            names = "--timeout",
            defaultValue = "5",
            description = "Seconds to wait for the answer, 1..60 (default: 5).")
    int timeoutSeconds;

    @Override
    public Integer call() throws InterruptedException {
        if (timeoutSeconds < 1 || timeoutSeconds > 60) {
            System.err.println("idem: --timeout must be 1..60 seconds, was " + timeoutSeconds);
            return 2;
        }
        String probe = server.url + (ready ? "/readyz" : "/healthz");
        try {
            int status = server.probe(ready ? "/readyz" : "/healthz", Duration.ofSeconds(timeoutSeconds));
            if (status == 200) {
                System.out.println("healthy: " + probe + " answered 200");
                return 0;
            }
            System.out.println("unhealthy: " + probe + " answered " + status);
        } catch (IOException | IllegalArgumentException e) {
            System.out.println(
                    "unhealthy: " + probe + " did not answer (" + e.getClass().getSimpleName() + ")");
        }
        return 1;
    }
}
