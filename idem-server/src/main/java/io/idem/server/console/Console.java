package io.idem.server.console;

import io.idem.core.spi.AuditLog;
import io.idem.server.api.AssetLinks;
import io.idem.server.api.HttpApi;
import io.idem.server.api.JobRequests;
import io.idem.server.api.Submissions;
import io.idem.server.config.TrustedProxies;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Handler;
import java.time.Duration;

/**
 * The operator console at {@code /console}: server-rendered jte pages with htmx, live over
 * server-sent events, signed in with an API key held in a server-side session. It calls the same
 * stores and checks as the {@code /v1} API; it adds no powers of its own. See docs/console.md.
 * Thread-safe once installed: sessions and caches are concurrent maps, pages hold no request state.
 */
public final class Console {
    static final String HOME = "/console/generate";
    static final String VISITOR = "idem.console.visitor";

    private final ConsoleGate gate;
    private final ConsolePages pages;
    private final LoginPage login;
    private final GeneratePage generate;
    private final JobPages jobs;
    private final ReviewPage review;
    private final ProvidersPage providers;
    private final ConsoleAssets assets = new ConsoleAssets();
    private final LiveStreams streams = new LiveStreams();

    public Console(
            HttpApi.Parts parts,
            TrustedProxies proxies,
            AuditLog audit,
            JobRequests requests,
            Submissions submissions,
            AssetLinks links) {
        gate = new ConsoleGate(
                new ConsoleSessions(
                        new SessionTable(parts.clock()), new SignInForms(parts.secret(), parts.clock()), proxies),
                parts.keys());
        pages = new ConsolePages(gate);
        JobViews views = new JobViews(links);
        login = new LoginPage(gate, pages, parts.keys(), new SignInThrottle(parts.clock(), parts.secret()), audit);
        generate = new GeneratePage(
                gate,
                pages,
                parts.routing(),
                requests,
                submissions,
                parts.stores().jobs().reads(),
                views);
        jobs = new JobPages(gate, pages, parts.stores().jobs().reads(), views, streams);
        review = new ReviewPage(
                gate,
                pages,
                parts.stores().jobs().reads(),
                parts.stores().jobs().review(),
                parts.reconciler(),
                views,
                parts.clock());
        providers = new ProvidersPage(
                gate,
                pages,
                parts.registry(),
                parts.routing(),
                parts.stores().jobs().reads(),
                parts.gate(),
                parts.sentinel(),
                parts.clock());
    }

    public void install(JavalinConfig config) {
        var routes = config.routes;
        config.events.serverStopping(() -> streams.stop(Duration.ofSeconds(2)));
        routes.get("/console", ctx -> ctx.redirect(HOME));
        routes.get("/console/assets/{name}", guard(assets::serve));
        routes.get("/console/login", guard(login::show));
        routes.post("/console/login", guard(login::signIn));
        routes.post("/console/logout", guard(login::signOut));
        routes.get("/console/generate", guard(generate::show));
        routes.post("/console/generate", guard(generate::submit));
        routes.get("/console/jobs", guard(jobs::list));
        routes.get("/console/jobs/{id}", guard(jobs::trace));
        routes.get("/console/review", guard(review::show));
        routes.post("/console/review/{id}", guard(review::decide));
        routes.get("/console/providers", guard(providers::show));
        // Streams answer 401 before any event when the session is gone; htmx then backs off.
        routes.before("/console/stream/*", ctx -> {
            var visitor = gate.tryVisitor(ctx);
            if (visitor.isEmpty()) {
                ctx.status(401).skipRemainingHandlers();
                return;
            }
            ctx.attribute(VISITOR, visitor.get());
        });
        routes.sse("/console/stream/jobs", jobs::listStream);
        routes.sse("/console/stream/jobs/{id}", jobs::traceStream);
    }

    private Handler guard(Handler handler) {
        return pages.guard(handler);
    }
}
