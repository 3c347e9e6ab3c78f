package io.idem.server.wiring;

import io.idem.core.routing.Routing;
import io.idem.core.spi.AssetStore;
import io.idem.server.admin.AdminKeysApi;
import io.idem.server.assets.AssetLinks;
import io.idem.server.assets.AssetsApi;
import io.idem.server.auth.KeyService;
import io.idem.server.auth.ServerSecret;
import io.idem.server.chat.ChatNode;
import io.idem.server.config.IdemConfig;
import io.idem.server.console.Console;
import io.idem.server.events.EventsApi;
import io.idem.server.hooks.HooksApi;
import io.idem.server.http.Auth;
import io.idem.server.http.Feature;
import io.idem.server.http.HttpServer;
import io.idem.server.http.KeyBudget;
import io.idem.server.http.Probes;
import io.idem.server.http.RetryMerge;
import io.idem.server.images.OpenAiImagesApi;
import io.idem.server.invoices.InvoicesApi;
import io.idem.server.jobs.CancelApi;
import io.idem.server.jobs.JobDesk;
import io.idem.server.jobs.JobRequests;
import io.idem.server.jobs.JobsApi;
import io.idem.server.jobs.Submissions;
import io.idem.server.metrics.Metrics;
import io.idem.server.metrics.MetricsApi;
import io.idem.server.models.ModelCatalog;
import io.idem.server.models.ModelsApi;
import io.idem.server.openapi.OpenApiDocument;
import io.idem.server.outbound.OutboundUrls;
import io.idem.server.providers.ProviderFacts;
import io.idem.server.providers.ProvidersApi;
import io.idem.server.providers.RouteCheckApi;
import io.idem.server.review.ReviewApi;
import io.idem.server.review.ReviewDesk;
import io.idem.server.status.StatusApi;
import io.idem.server.status.StatusBoard;
import io.idem.server.webhooks.SigningSecrets;
import io.idem.server.webhooks.WebhooksApi;
import java.time.InstantSource;
import java.util.List;
import java.util.function.BooleanSupplier;

/** The HTTP API of DESIGN §7 and the console: the features a node serves, in the order they install. */
public final class HttpApi {

    /**
     * What the features need from the rest of the node.
     *
     * @param ready whether the node can serve ({@code /readyz})
     * @param metrics what {@code GET /metrics} shows
     */
    public record Parts(
            Stores stores,
            Engine engine,
            KeyService keys,
            ServerSecret secret,
            Routing routing,
            AssetStore assets,
            ChatNode chat,
            InstantSource clock,
            BooleanSupplier ready,
            Metrics metrics) {}

    private HttpApi() {}

    public static HttpServer start(IdemConfig config, Parts parts) {
        return HttpServer.start(
                new HttpServer.Settings(
                        config.http().host(),
                        config.http().port(),
                        config.http().maxRequestBytes()),
                features(config, parts));
    }

    static List<Feature> features(IdemConfig config, Parts parts) {
        Auth auth = new Auth(parts.keys()::authenticate);
        AssetLinks links = new AssetLinks(parts.secret());
        var jobStores = parts.stores().jobs();
        var reads = jobStores.reads();
        var outbound = new OutboundUrls(config.webhooks().allowPrivateUrls());
        var desk = desk(config, parts);
        var requests = desk.requests();
        Engine engine = parts.engine();
        var facts = facts(config, parts);
        long maxBytes = config.http().maxRequestBytes();
        return List.of(
                new JobsApi(auth, desk, maxBytes),
                new OpenAiImagesApi(auth, desk, parts.assets(), config.http().openaiWait(), maxBytes),
                new AdminKeysApi(auth, parts.keys(), parts.chat().offered()::containsKey),
                new WebhooksApi(
                        auth,
                        parts.stores().outbound().subscriptions(),
                        new SigningSecrets(parts.secret()),
                        outbound,
                        parts.clock()),
                new ReviewApi(auth, review(parts), links, parts.clock()),
                new CancelApi(auth, reads, engine.canceller(), links),
                new io.idem.server.videos.VideosApi(auth, desk, parts.assets(), engine.canceller(), maxBytes),
                new HooksApi(engine.webhookLinks(), jobStores.webhooks(), engine.reconciler(), parts.clock()),
                new ProvidersApi(auth, facts),
                new EventsApi(auth, parts.stores().watch().events()),
                new StatusApi(new StatusBoard(
                        facts,
                        config.chat().models().values(),
                        parts.stores().watch().events())),
                new RouteCheckApi(auth, requests, parts.chat().plans(), facts, maxBytes),
                new ModelsApi(
                        auth,
                        catalog(config, parts, facts),
                        parts.clock().instant().getEpochSecond()),
                parts.chat().api().routes(auth, maxBytes),
                new AssetsApi(auth, reads, parts.assets(), links),
                console(config, parts, desk, facts),
                new MetricsApi(auth, parts.metrics(), config.secrets().metricsToken()),
                new InvoicesApi(
                        auth,
                        engine.invoices(),
                        parts.stores().watch().invoices(),
                        engine.registry().all().keySet(),
                        parts.clock()),
                new io.idem.server.statictier.StaticTierApi(
                        auth, parts.stores().watch().traffic(), config.storage().answerRetention(), parts.clock()),
                new Probes(parts.ready()),
                new OpenApiDocument());
    }

    /**
     * How jobs are read, accepted, looked up and linked, for the routes and for an embedded node
     * alike.
     */
    public static JobDesk desk(IdemConfig config, Parts parts) {
        // The keys adapters read, so a provider counts as keyed exactly when its adapter can call it.
        var requests = new JobRequests(
                parts.routing(),
                config.credentials()::get,
                config.engine().deferral(),
                new OutboundUrls(config.webhooks().allowPrivateUrls()));
        if (config.engine().moderation().configured()) {
            requests.moderatingAdultLanes();
        }
        return new JobDesk(
                requests, submissions(config, parts), parts.stores().jobs().reads(), new AssetLinks(parts.secret()));
    }

    /** The review queue and its decisions, for the routes and for an embedded node alike. */
    public static ReviewDesk review(Parts parts) {
        return new ReviewDesk(
                parts.stores().jobs().reads(),
                parts.stores().jobs().review(),
                parts.engine().reconciler(),
                parts.assets(),
                parts.clock());
    }

    /** The operator console, over the same desk, provider facts and stores as {@code /v1}. */
    private static Console console(IdemConfig config, Parts parts, JobDesk desk, ProviderFacts facts) {
        Engine engine = parts.engine();
        return new Console(new Console.Parts(
                new Console.SignIn(
                        parts.keys(),
                        parts.secret(),
                        config.http().trustedProxies(),
                        parts.stores().audit()),
                parts.routing(),
                desk,
                parts.stores().jobs().review(),
                engine.reconciler(),
                facts,
                parts.stores().watch().dashboard(),
                parts.stores().watch().events(),
                parts.clock()));
    }

    /**
     * The management port: {@code GET /metrics} for scrapers, and the probes {@code GET /healthz} and
     * {@code GET /readyz}, so that a worker-only node can be scraped and health-checked too.
     */
    public static HttpServer startManagement(
            IdemConfig config, KeyService keys, Metrics metrics, BooleanSupplier ready, int port) {
        return HttpServer.start(
                new HttpServer.Settings(config.http().host(), port, 1024),
                List.of(
                        new MetricsApi(
                                new Auth(keys::authenticate),
                                metrics,
                                config.secrets().metricsToken()),
                        new Probes(ready)));
    }

    /** How SDK retries of keyless requests are merged, for jobs and chat alike. */
    public static RetryMerge retryMerge(IdemConfig config) {
        var windows = config.engine().sdkRetries();
        return new RetryMerge(windows.defaultWindow(), windows.maxWindow());
    }

    private static ProviderFacts facts(IdemConfig config, Parts parts) {
        return new ProviderFacts(
                parts.engine().registry(),
                parts.routing(),
                parts.stores().jobs().reads(),
                parts.engine().gate(),
                parts.engine().sentinel(),
                parts.clock(),
                config.chat().chatOnlyProviders(),
                parts.chat().sentinel());
    }

    private static ModelCatalog catalog(IdemConfig config, Parts parts, ProviderFacts facts) {
        return new ModelCatalog(
                parts.routing(),
                new io.idem.core.routing.Eligibility(parts.routing(), config.credentials()::get),
                parts.chat().offered().values(),
                facts.providers()::get);
    }

    private static Submissions submissions(IdemConfig config, Parts parts) {
        return new Submissions(
                parts.stores().jobs().intake(),
                new KeyBudget(parts.stores().keySpend(), parts.clock()),
                parts.secret(),
                config.engine().idempotencyRetention(),
                retryMerge(config),
                parts.engine().requeued(),
                parts.clock());
    }
}
