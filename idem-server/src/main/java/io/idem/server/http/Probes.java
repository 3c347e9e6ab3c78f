package io.idem.server.http;

import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code GET /healthz} (the process answers) and {@code GET /readyz} (it can reach its database:
 * 200, else 503), both without a key, for load balancers and orchestrators.
 */
public final class Probes implements Feature {
    private final BooleanSupplier ready;

    /** {@code ready} answers whether the node can serve; it must not throw. */
    public Probes(BooleanSupplier ready) {
        this.ready = ready;
    }

    @Override
    public void install(io.javalin.config.JavalinConfig config) {
        config.routes.get("/healthz", ctx -> Json.write(ctx, Map.of("status", "ok")));
        config.routes.get("/readyz", ctx -> {
            boolean up = ready.getAsBoolean();
            ctx.status(up ? 200 : 503);
            Json.write(ctx, Map.of("status", up ? "ready" : "database_unreachable"));
        });
    }
}
