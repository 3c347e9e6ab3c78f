package io.idem.server.api;

import io.idem.core.engine.ProviderRegistry;
import io.idem.core.routing.Routing;
import io.idem.core.spi.AssetStore;
import io.idem.server.auth.KeyService;
import io.idem.server.auth.ServerSecret;
import io.idem.server.config.IdemConfig;
import io.idem.server.wiring.Stores;
import io.javalin.Javalin;
import java.time.InstantSource;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** The HTTP API of DESIGN §7 on Javalin (virtual threads). */
public final class HttpApi implements AutoCloseable {
    private final Javalin app;
    private final String host;

    /** What the API needs from the rest of the node. */
    public record Parts(
            Stores stores,
            BooleanSupplier ready,
            KeyService keys,
            ServerSecret secret,
            ProviderRegistry registry,
            Routing routing,
            AssetStore assets,
            Runnable wakeWorkers,
            io.idem.core.engine.Reconciler reconciler,
            io.idem.core.engine.JobCanceller canceller,
            WebhookLinks webhookLinks,
            io.idem.core.engine.ProviderGate gate,
            io.idem.core.engine.HealthSentinel sentinel,
            InstantSource clock,
            io.idem.server.chat.ChatApi chat) {}

    private HttpApi(Javalin app, String host) {
        this.app = app;
        this.host = host;
    }

    public static HttpApi start(IdemConfig config, Parts parts) {
        Auth auth = new Auth(parts.keys());
        AssetLinks links = new AssetLinks(parts.secret());
        var reads = parts.stores().jobs().reads();
        JobRequests requests = new JobRequests(parts.routing());
        Submissions submissions = new Submissions(
                parts.stores().jobs().intake(),
                parts.secret(),
                config.idempotencyRetention(),
                parts.wakeWorkers(),
                parts.clock(),
                parts.stores().keySpend());
        long maxBytes = config.maxRequestBytes();
        Javalin app = Javalin.create(c -> {
            c.concurrency.useVirtualThreads = true;
            c.startup.showJavalinBanner = false;
            c.http.maxRequestSize = maxBytes + 1;
            c.jetty.host = config.host();
            c.jetty.port = config.port();
            ApiErrors.install(c);
            RepeatedHeaders.install(c);
            new JobsApi(auth, requests, submissions, reads, links, maxBytes).install(c);
            new OpenAiImagesApi(
                            auth, requests, submissions, reads, parts.assets(), links, config.openaiWait(), maxBytes)
                    .install(c);
            new AdminKeysApi(auth, parts.keys()).install(c);
            new ReviewApi(
                            auth,
                            reads,
                            parts.stores().jobs().review(),
                            parts.reconciler(),
                            parts.assets(),
                            links,
                            parts.clock())
                    .install(c);
            new CancelApi(auth, reads, parts.canceller(), links).install(c);
            new HooksApi(parts.webhookLinks(), parts.stores().jobs().webhooks(), parts.reconciler(), parts.clock())
                    .install(c);
            new ProvidersApi(
                            auth,
                            parts.registry(),
                            parts.routing(),
                            reads,
                            parts.clock(),
                            parts.gate(),
                            parts.sentinel())
                    .install(c);
            new RouteCheckApi(auth, requests, parts.gate(), maxBytes).install(c);
            parts.chat().install(c, auth, maxBytes);
            new AssetsApi(auth, reads, parts.assets(), links).install(c);
            new io.idem.server.console.Console(
                            parts, config.trustedProxies(), parts.stores().audit(), requests, submissions, links)
                    .install(c);
            c.routes.get("/healthz", ctx -> Json.write(ctx, Map.of("status", "ok")));
            c.routes.get("/readyz", ctx -> {
                boolean ready = parts.ready().getAsBoolean();
                ctx.status(ready ? 200 : 503);
                Json.write(ctx, Map.of("status", ready ? "ready" : "database_unreachable"));
            });
        });
        app.start();
        return new HttpApi(app, config.host());
    }

    public int port() {
        return app.port();
    }

    public String baseUrl() {
        return "http://" + host + ":" + app.port();
    }

    @Override
    public void close() {
        app.stop();
    }
}
