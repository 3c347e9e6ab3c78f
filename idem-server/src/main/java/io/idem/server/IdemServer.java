package io.idem.server;

import io.idem.core.breaker.CircuitBreakers;
import io.idem.core.engine.HealthSentinel;
import io.idem.core.engine.JobWorker;
import io.idem.core.engine.LeaseSweeper;
import io.idem.core.engine.Reconciler;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.routing.Routing;
import io.idem.core.text.Redactor;
import io.idem.postgres.Database;
import io.idem.postgres.EmbeddedDatabase;
import io.idem.postgres.PgChatAudit;
import io.idem.providers.chat.StaticChatAdapter;
import io.idem.providers.chat.StaticVendor;
import io.idem.providers.fake.FakeVendorServer;
import io.idem.server.alerts.Alerts;
import io.idem.server.assets.FileAssetStore;
import io.idem.server.assets.TieredAssetStore;
import io.idem.server.auth.KeyService;
import io.idem.server.auth.ServerSecret;
import io.idem.server.chat.ChatNode;
import io.idem.server.chat.TrafficRecorder;
import io.idem.server.config.ConfigException;
import io.idem.server.config.IdemConfig;
import io.idem.server.hooks.WebhookLinks;
import io.idem.server.http.HttpServer;
import io.idem.server.jobs.JobDesk;
import io.idem.server.metrics.GateState;
import io.idem.server.metrics.Metrics;
import io.idem.server.redaction.NodeRedaction;
import io.idem.server.review.ReviewDesk;
import io.idem.server.webhooks.EventWebhooks;
import io.idem.server.webhooks.SigningSecrets;
import io.idem.server.wiring.Engine;
import io.idem.server.wiring.HttpApi;
import io.idem.server.wiring.Maintenance;
import io.idem.server.wiring.Resources;
import io.idem.server.wiring.Stores;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Idem node, and the composition root: the one place that chooses PostgreSQL (embedded unless
 * a URL is given) and the system clock. It starts the in-process fake vendors for the demo, the
 * job engine ({@link Engine}), and on an API node the chat side and the HTTP API, per the node's
 * role. {@link #close()} stops them in reverse order: nothing accepted is lost (it is in the
 * database).
 */
public final class IdemServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(IdemServer.class);
    private static final Duration PURGE_EVERY = Duration.ofMinutes(10);

    private final Resources resources = new Resources();
    private final Map<String, FakeVendorServer> fakes = new LinkedHashMap<>();
    private Database database;
    private Engine engine;
    private ChatNode chat;
    private HttpServer http;
    private HttpServer managementPort;

    private JobDesk desk;
    private ReviewDesk review;
    private io.idem.core.spi.AssetStore assets;

    private IdemServer() {}

    /**
     * What an embedding service hands a node instead of a database URL and the wall clock (the
     * {@code idem-embedded} module): its own pool, which the node migrates and leaves open, and the
     * clock the node reads. An embedded node serves no HTTP and creates no admin key; its chat side
     * and job desk are reached in process ({@link #desk()}, {@link #review()}, {@link #chat()}).
     * Immutable.
     */
    public record Embedding(DataSource dataSource, Clock clock) {
        public Embedding {
            java.util.Objects.requireNonNull(dataSource, "dataSource");
            java.util.Objects.requireNonNull(clock, "clock");
        }
    }

    public static IdemServer start(IdemConfig config, PrintStream console) {
        return launch(config, console, null);
    }

    /** Starts a node inside an embedding service: no HTTP, no admin key, on its pool and clock. */
    public static IdemServer embed(IdemConfig config, Embedding embedding) {
        return launch(config, new PrintStream(PrintStream.nullOutputStream()), embedding);
    }

    private static IdemServer launch(IdemConfig config, PrintStream console, Embedding embedding) {
        IdemServer server = new IdemServer();
        try {
            server.boot(config, console, embedding);
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private void boot(IdemConfig config, PrintStream console, Embedding embedding) {
        log.info("starting Idem{}: {}", embedding == null ? "" : " (embedded)", config.describe());
        Clock clock = embedding == null ? Clock.systemUTC() : embedding.clock();
        database = resources.push(embedding == null ? openDatabase(config) : Database.over(embedding.dataSource()));
        ServerSecret secret = config.secrets()
                .secret()
                .map(ServerSecret::of)
                .orElseGet(() -> ServerSecret.loadOrCreate(config.storage().dataDir()));
        // Before any adapter exists: whatever a vendor says passes through it (docs/providers.md#redaction).
        Redactor redactor = NodeRedaction.start(config, secret);
        Metrics metrics = new Metrics();
        Stores stores = Stores.on(database).meteredBy(metrics);
        Engine.Vendor vendor = new Engine.Vendor(config.credentials()::get, redactor, metrics);
        Routing routing = withInProcessFakes(config);
        KeyService keys = new KeyService(stores.keys(), clock);
        if (embedding == null) {
            bootstrapAdmin(config, keys, console);
        }
        assets = new TieredAssetStore(
                new FileAssetStore(config.storage().dataDir().resolve("assets")),
                stores.jobs().reads());
        engine = resources.push(Engine.build(new Engine.Parts(
                config,
                stores,
                routing,
                assets,
                new WebhookLinks(config.http().publicUrl(), secret),
                database,
                clock,
                vendor)));
        if (config.role().servesApi()) {
            chat = startChat(config, stores, routing, secret, clock, vendor);
            var parts = new HttpApi.Parts(
                    stores, engine, keys, secret, routing, assets, chat, clock, this::databaseReachable, metrics);
            desk = HttpApi.desk(config, parts);
            review = HttpApi.review(parts);
            if (embedding == null) {
                http = resources.push(HttpApi.start(config, parts));
            }
        }
        java.util.Set<String> providers = watch(config, metrics, stores, routing, clock);
        Stores.Watch watched = stores.watch();
        resources.push(Alerts.start(
                config.alerts(),
                watched.alerts(),
                new Alerts.Thresholds(watched.signals(), watched.incidents(), providers, staticTier(config)),
                redactor,
                clock));
        startWebhooks(config, stores, secret, redactor, clock);
        config.http()
                .metricsPort()
                .ifPresent(port -> managementPort =
                        resources.push(HttpApi.startManagement(config, keys, metrics, this::databaseReachable, port)));
        engine.start();
        log.info("Idem is ready{}", http != null ? " on " + http.baseUrl() : chat == null ? " (worker only)" : "");
    }

    /** Event webhooks: this node's dispatcher over the shared outbox, and the purge of its old deliveries. */
    private void startWebhooks(IdemConfig config, Stores stores, ServerSecret secret, Redactor redactor, Clock clock) {
        var webhooks = config.webhooks();
        var outbox = stores.outbound().outbox();
        resources.push(EventWebhooks.start(
                webhooks,
                outbox,
                new SigningSecrets(secret),
                redactor,
                config.engine().worker().workerId(),
                clock));
        resources.push(Maintenance.purgeEvery(
                "webhook deliveries",
                PURGE_EVERY,
                (now, limit) -> outbox.purge(now.minus(webhooks.retention()), limit),
                clock));
    }

    /** The chat-only providers that are the static last-resort tier. */
    private static java.util.Set<String> staticTier(IdemConfig config) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        config.chat().chatOnlyProviders().forEach((name, settings) -> {
            if (settings.adapter().equals(StaticVendor.NAME)) {
                names.add(name);
            }
        });
        return names;
    }

    /** The gauges over shared state: every provider (job and chat-only, which it returns) and the backlog. */
    private java.util.Set<String> watch(
            IdemConfig config, Metrics metrics, Stores stores, Routing routing, Clock clock) {
        java.util.Set<String> providers =
                new java.util.LinkedHashSet<>(routing.providers().keySet());
        providers.addAll(config.chat().chatOnlyProviders().keySet());
        List<HealthSentinel> sentinels = new java.util.ArrayList<>(List.of(engine.sentinel()));
        if (chat != null) {
            chat.sentinel().ifPresent(sentinels::add);
            chat.staticTier()
                    .forEach((name, tier) ->
                            metrics.staticTier(name, tier, StaticChatAdapter::prepared, StaticChatAdapter::notices));
        }
        metrics.watch(
                providers,
                new GateState(engine.gate(), sentinels),
                stores.watch().backlog(),
                clock);
        metrics.watchInvoices(routing.providers().keySet(), stores.watch().invoices(), clock);
        return providers;
    }

    private Database openDatabase(IdemConfig config) {
        String url = config.storage().databaseUrl().orElseGet(() -> {
            EmbeddedDatabase embedded;
            try {
                embedded = EmbeddedDatabase.start(config.storage().dataDir().resolve("postgres"));
            } catch (RuntimeException e) {
                throw new ConfigException(
                        "no database_url / IDEM_DATABASE_URL is set and the embedded PostgreSQL did not start ("
                                + e.getMessage()
                                + "): set IDEM_DATABASE_URL to a PostgreSQL 14+ database (the container image"
                                + " has no embedded one)",
                        e);
            }
            return resources.push(embedded).jdbcUrl("postgres");
        });
        return Database.open(
                url, Math.max(16, Math.min(64, config.engine().worker().concurrency() / 2 + 8)));
    }

    /**
     * The chat side, over the provider gate (breakers, budgets) it shares with jobs. Its audit
     * writer and the node are pushed before the HTTP server, so they stop after it and the writer
     * commits all that the last calls wrote.
     */
    private ChatNode startChat(
            IdemConfig config, Stores stores, Routing routing, ServerSecret secret, Clock clock, Engine.Vendor vendor) {
        resources.push(
                Maintenance.purgeEvery("chat idempotency keys", PURGE_EVERY, stores.chatKeys()::purgeExpired, clock));
        PgChatAudit audit = resources.push(new PgChatAudit(database));
        return resources.push(ChatNode.start(new ChatNode.Parts(
                config.chat(),
                routing,
                new ChatNode.Stores(
                        stores.chatKeys(),
                        stores.keySpend(),
                        audit,
                        vendor.metrics().chatAudit(),
                        stores.outbound().signals()),
                engine.gate(),
                new ChatNode.Replays(
                        secret,
                        config.engine().idempotencyRetention(),
                        io.idem.server.wiring.HttpApi.retryMerge(config)),
                config.engine().healthEvery(),
                clock,
                vendor.keys(),
                vendor.redactor(),
                new ChatNode.Reporting(
                        config.engine().worker().workerId(),
                        vendor.metrics()::chatCallEnded,
                        traffic(config, stores, clock)))));
    }

    /**
     * Where live answers to single-turn prompts are kept for {@code idem static build}: nowhere
     * unless {@code chat.answer_retention_days} is set; what was kept is forgotten after that many
     * days, and all of it when retention is turned off.
     */
    private TrafficRecorder traffic(IdemConfig config, Stores stores, Clock clock) {
        Duration retention = config.storage().answerRetention();
        var store = stores.watch().traffic();
        if (retention.isZero()) {
            store.purgeBefore(java.time.LocalDate.ofInstant(clock.instant(), java.time.ZoneOffset.UTC)
                    .plusDays(1));
            return TrafficRecorder.off();
        }
        resources.push(Maintenance.purgeEvery(
                "kept chat answers",
                PURGE_EVERY,
                (now, limit) -> store.purgeBefore(java.time.LocalDate.ofInstant(now, java.time.ZoneOffset.UTC)
                        .minusDays(retention.toDays())),
                clock));
        java.util.Set<String> staticModels = new java.util.HashSet<>();
        config.chat().models().forEach((name, model) -> {
            var provider = config.chat().chatOnlyProviders().get(model.provider());
            if (provider != null && provider.adapter().equals(io.idem.providers.chat.StaticVendor.NAME)) {
                staticModels.add(name);
            }
        });
        return resources.push(TrafficRecorder.start(store, clock, staticModels));
    }

    private boolean databaseReachable() {
        try {
            return database.withConnection(conn -> conn.isValid(2));
        } catch (RuntimeException e) {
            return false;
        }
    }

    private Routing withInProcessFakes(IdemConfig config) {
        Map<String, ProviderSettings> providers = new LinkedHashMap<>();
        config.routing().providers().forEach((name, settings) -> {
            if (config.inProcessFakes().contains(name)) {
                FakeVendorServer fake = FakeVendorServer.start(0);
                fakes.put(name, fake);
                resources.push(fake::close);
                providers.put(name, settings.withBaseUrl(fake.baseUrl()));
            } else {
                providers.put(name, settings);
            }
        });
        Routing original = config.routing();
        return new Routing(providers, original.lanes(), original.defaultLane(), original.adultLanes());
    }

    /**
     * The first admin key, once per database: the configured {@code IDEM_BOOTSTRAP_KEY}, or else a
     * new key printed once by the one API node that created it. A worker-only node creates none (it
     * has nowhere to show it; the first API node to start will).
     */
    private static void bootstrapAdmin(IdemConfig config, KeyService keys, PrintStream console) {
        if (config.secrets().bootstrapKey().isPresent()) {
            keys.ensureAdmin(config.secrets().bootstrapKey().get());
            return;
        }
        if (!config.role().servesApi() || keys.hasAdmin()) {
            return;
        }
        keys.issueFirstAdmin().ifPresent(admin -> {
            console.println();
            console.println("  Admin API key (shown once; store it now): " + admin.secret());
            console.println();
        });
    }

    /** The management port's address ({@code metrics_port}), when one is configured. */
    public java.util.Optional<String> managementUrl() {
        return java.util.Optional.ofNullable(managementPort).map(HttpServer::baseUrl);
    }

    public String baseUrl() {
        return http.baseUrl();
    }

    /** The routes the API port serves (none on a worker-only node). */
    public java.util.List<HttpServer.Route> routes() {
        return http == null ? java.util.List.of() : http.routes();
    }

    public Database database() {
        return database;
    }

    /** How jobs are read, accepted and looked up (null on a worker-only node). */
    public JobDesk desk() {
        return desk;
    }

    /** Where delivered results are kept. */
    public io.idem.core.spi.AssetStore assets() {
        return assets;
    }

    /** The review queue and its decisions (null on a worker-only node). */
    public ReviewDesk review() {
        return review;
    }

    /** The in-process fake vendors by provider name (the demo's "invoices"). */
    public Map<String, FakeVendorServer> fakes() {
        return fakes;
    }

    /** Null on a node that runs no worker. */
    public JobWorker worker() {
        return engine.worker();
    }

    public Reconciler reconciler() {
        return engine.reconciler();
    }

    public HealthSentinel sentinel() {
        return engine.sentinel();
    }

    public CircuitBreakers breakers() {
        return engine.breakers();
    }

    /** The chat side (null on a worker-only node). */
    public ChatNode chat() {
        return chat;
    }

    /** Null on a node that runs no worker. */
    public LeaseSweeper sweeper() {
        return engine.sweeper();
    }

    @Override
    public void close() {
        resources.close();
    }
}
