package io.idem.server.console;

import io.idem.core.engine.Reconciler;
import io.idem.core.routing.Routing;
import io.idem.core.spi.AuditLog;
import io.idem.core.spi.DashboardReads;
import io.idem.core.spi.EventReads;
import io.idem.core.spi.JobReads;
import io.idem.core.spi.ReviewStore;
import io.idem.server.auth.KeyService;
import io.idem.server.auth.ServerSecret;
import io.idem.server.config.TrustedProxies;
import io.idem.server.http.Feature;
import io.idem.server.jobs.JobDesk;
import io.idem.server.providers.ProviderFacts;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Handler;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

/**
 * The operator console at {@code /console}: server-rendered jte pages with htmx, live over
 * server-sent events, signed in with an API key held in a server-side session. It calls the same
 * stores and checks as the {@code /v1} API; it adds no powers of its own. See docs/console.md.
 * Thread-safe once installed: sessions and caches are concurrent maps, pages hold no request state.
 */
public final class Console implements Feature {
    static final String HOME = "/console/generate";
    static final String VISITOR = "idem.console.visitor";

    private final ConsoleGate gate;
    private final ConsolePages pages;
    private final LoginPage login;
    private final GeneratePage generate;
    private final JobPages jobs;
    private final ReviewPage review;
    private final ProvidersPage providers;
    private final DashboardPage dashboard;
    private final EventsPage events;
    private final ConsoleAssets assets = new ConsoleAssets();
    private final LiveStreams streams = new LiveStreams();

    /**
     * What signing in needs: the keys, the secret that signs sessions and forms, the proxies whose
     * forwarded headers are believed, and the audit log for blocked sign-ins.
     */
    public record SignIn(KeyService keys, ServerSecret secret, TrustedProxies proxies, AuditLog audit) {}

    /**
     * What the console needs from the node: the same pieces the {@code /v1} routes use, and the
     * dashboard's series.
     */
    public record Parts(
            SignIn signIn,
            Routing routing,
            JobDesk jobs,
            ReviewStore review,
            Reconciler reconciler,
            ProviderFacts providers,
            DashboardReads dashboard,
            EventReads events,
            InstantSource clock) {}

    public Console(Parts parts) {
        SignIn signIn = parts.signIn();
        gate = new ConsoleGate(
                new ConsoleSessions(
                        new SessionTable(parts.clock()),
                        new SignInForms(signIn.secret(), parts.clock()),
                        signIn.proxies()),
                signIn.keys());
        pages = new ConsolePages(gate);
        JobViews views = new JobViews(parts.jobs().links());
        JobReads reads = parts.jobs().reads();
        login = new LoginPage(
                gate, pages, signIn.keys(), new SignInThrottle(parts.clock(), signIn.secret()), signIn.audit());
        generate = new GeneratePage(gate, pages, parts.routing(), parts.jobs(), views);
        jobs = new JobPages(gate, pages, reads, views, streams);
        review = new ReviewPage(gate, pages, reads, parts.review(), parts.reconciler(), views, parts.clock());
        providers = new ProvidersPage(gate, pages, parts.providers());
        dashboard = new DashboardPage(
                gate,
                pages,
                new DashboardCharts(
                        parts.dashboard(),
                        List.copyOf(parts.providers().providers().keySet()),
                        parts.clock()),
                streams);
        events = new EventsPage(gate, pages, parts.events(), parts.providers());
    }

    @Override
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
        routes.get("/console/dashboard", guard(dashboard::show));
        routes.get("/console/events", guard(events::show));
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
        routes.sse("/console/stream/dashboard", dashboard::stream);
    }

    private Handler guard(Handler handler) {
        return pages.guard(handler);
    }
}
