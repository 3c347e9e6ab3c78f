package io.idem.server;

import io.idem.core.engine.JobWorker;
import io.idem.core.engine.LeaseSweeper;
import io.idem.core.engine.ProviderRegistry;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.routing.Routing;
import io.idem.core.text.Redactor;
import io.idem.postgres.Database;
import io.idem.postgres.EmbeddedDatabase;
import io.idem.postgres.JobWakeups;
import io.idem.postgres.PgApiKeys;
import io.idem.postgres.PgJobIntake;
import io.idem.postgres.PgJobQueueStore;
import io.idem.postgres.PgJobReads;
import io.idem.providers.Adapters;
import io.idem.providers.fake.FakeVendorServer;
import io.idem.server.api.HttpApi;
import io.idem.server.assets.FileAssetStore;
import io.idem.server.auth.KeyService;
import io.idem.server.auth.ServerSecret;
import io.idem.server.config.IdemConfig;
import io.idem.server.redaction.NodeRedaction;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Idem node: database (embedded unless a URL is given), in-process fake vendors for the demo,
 * provider adapters, worker, lease sweeper, wake-ups and the HTTP API, per the node's role.
 * {@link #close()} stops them in reverse order: nothing accepted is lost (it is in the database).
 */
public final class IdemServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(IdemServer.class);

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final Map<String, FakeVendorServer> fakes = new LinkedHashMap<>();
    private Database database;
    private HttpApi http;
    private JobWorker worker;
    private LeaseSweeper sweeper;
    private io.idem.core.engine.Reconciler reconciler;
    private io.idem.core.breaker.CircuitBreakers breakers;
    private io.idem.core.engine.HealthSentinel sentinel;
    private io.idem.server.chat.ChatNode chat;

    private IdemServer() {}

    public static IdemServer start(IdemConfig config, PrintStream console) {
        IdemServer server = new IdemServer();
        try {
            server.boot(config, console);
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private void boot(IdemConfig config, PrintStream console) {
        log.info("starting Idem: {}", config.describe());
        Clock clock = Clock.systemUTC();
        String url = config.databaseUrl().orElseGet(() -> {
            EmbeddedDatabase embedded = EmbeddedDatabase.start(config.dataDir().resolve("postgres"));
            resources.push(embedded);
            return embedded.jdbcUrl("postgres");
        });
        database = Database.open(url, Math.max(16, Math.min(64, config.worker().concurrency() / 2 + 8)));
        resources.push(database);
        ServerSecret secret =
                config.secret().map(ServerSecret::of).orElseGet(() -> ServerSecret.loadOrCreate(config.dataDir()));
        // Before any adapter exists: whatever a vendor says passes through it (docs/providers.md#redaction).
        Redactor redactor = NodeRedaction.start(config, secret);
        UnaryOperator<String> vendorKeys = config.credentials()::get;

        Routing routing = withInProcessFakes(config);
        Map<String, ProviderRegistry.Provider> providers = new LinkedHashMap<>();
        routing.providers()
                .forEach((name, settings) -> providers.put(
                        name,
                        new ProviderRegistry.Provider(settings, Adapters.create(settings, vendorKeys, redactor))));
        ProviderRegistry registry = new ProviderRegistry(providers, redactor);

        KeyService keys = new KeyService(new PgApiKeys(database), clock);
        bootstrapAdmin(config, keys, console);

        var assets = new FileAssetStore(config.dataDir().resolve("assets"));
        var webhookLinks = new io.idem.server.api.WebhookLinks(config.publicUrl(), secret);
        var queue = new PgJobQueueStore(database);
        String node = config.worker().workerId();
        breakers = new io.idem.core.breaker.CircuitBreakers(
                new io.idem.postgres.PgBreakerStore(database), config.breaker(), clock, node);
        Map<String, java.math.BigDecimal> dailyBudgets = new LinkedHashMap<>();
        routing.providers()
                .forEach((name, settings) -> settings.dailyBudgetUsd().ifPresent(b -> dailyBudgets.put(name, b)));
        config.chat()
                .chatOnlyProviders()
                .forEach((name, settings) -> settings.dailyBudgetUsd().ifPresent(b -> dailyBudgets.put(name, b)));
        var gate = new io.idem.core.engine.ProviderGate(
                breakers,
                new io.idem.core.budget.ProviderBudgets(
                        new io.idem.postgres.PgSpendStore(database), dailyBudgets, clock));
        sentinel = new io.idem.core.engine.HealthSentinel(
                registry, breakers, clock, config.healthEvery(), Duration.ofSeconds(5));
        resources.push(sentinel);
        Runnable wakeLocal = () -> {};
        if (config.role().runsWorker()) {
            worker = new JobWorker(queue, registry, assets, clock, config.worker(), webhookLinks, gate);
            resources.push(worker);
            JobWorker w = worker;
            wakeLocal = w::wake;
            sweeper = new LeaseSweeper(queue, clock, Duration.ofSeconds(5), w::wake);
            resources.push(sweeper);
        }
        Runnable wakeWorkers = wakeLocal;
        var cachedBreakers = breakers;
        JobWakeups wakeups =
                new JobWakeups(database, wakeWorkers, Map.of(io.idem.postgres.PgBreakerStore.CHANNEL, provider -> {
                    if ("*".equals(provider)) {
                        cachedBreakers.refreshAll();
                    } else {
                        cachedBreakers.refresh(provider);
                    }
                }));
        resources.push(wakeups);
        PgJobIntake intake = new PgJobIntake(database);
        var review = new io.idem.postgres.PgReviewStore(database);
        Runnable requeued = () -> {
            wakeWorkers.run();
            wakeups.announce();
        };
        reconciler = new io.idem.core.engine.Reconciler(
                review, registry, assets, clock, config.reconcileInterval(), config.reconcileMaxAge(), requeued);
        resources.push(reconciler);
        var canceller =
                new io.idem.core.engine.JobCanceller(new io.idem.postgres.PgCancelStore(database), registry, clock);
        resources.push(
                Maintenance.purgeEvery("idempotency keys", Duration.ofMinutes(10), intake::purgeExpiredKeys, clock));

        if (config.role().servesApi()) {
            // Chat calls share the provider gate (breakers, budgets) with jobs; pushed before the
            // HTTP server, so it stops after it and the audit writer commits all it holds.
            chat = io.idem.server.chat.ChatNode.start(new io.idem.server.chat.ChatNode.Parts(
                    config.chat(),
                    routing,
                    database,
                    gate,
                    secret,
                    config.idempotencyRetention(),
                    config.healthEvery(),
                    clock,
                    vendorKeys,
                    redactor));
            resources.push(chat);
            http = HttpApi.start(
                    config,
                    new HttpApi.Parts(
                            database,
                            keys,
                            secret,
                            registry,
                            routing,
                            intake,
                            new PgJobReads(database),
                            assets,
                            requeued,
                            review,
                            reconciler,
                            canceller,
                            webhookLinks,
                            new io.idem.postgres.PgWebhooks(database),
                            gate,
                            sentinel,
                            clock,
                            chat.api()));
            resources.push(http);
        }
        if (worker != null) {
            worker.start();
            sweeper.start();
            reconciler.start();
        }
        sentinel.start();
        log.info("Idem is ready{}", http == null ? " (worker only)" : " on " + http.baseUrl());
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
        if (config.bootstrapKey().isPresent()) {
            keys.ensureAdmin(config.bootstrapKey().get());
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

    public String baseUrl() {
        return http.baseUrl();
    }

    public Database database() {
        return database;
    }

    /** The in-process fake vendors by provider name (the demo's "invoices"). */
    public Map<String, FakeVendorServer> fakes() {
        return fakes;
    }

    public JobWorker worker() {
        return worker;
    }

    public io.idem.core.engine.Reconciler reconciler() {
        return reconciler;
    }

    public io.idem.core.engine.HealthSentinel sentinel() {
        return sentinel;
    }

    public io.idem.core.breaker.CircuitBreakers breakers() {
        return breakers;
    }

    /** The chat side (null on a worker-only node). */
    public io.idem.server.chat.ChatNode chat() {
        return chat;
    }

    public LeaseSweeper sweeper() {
        return sweeper;
    }

    @Override
    public void close() {
        while (!resources.isEmpty()) {
            AutoCloseable resource = resources.pop();
            try {
                resource.close();
            } catch (Exception e) {
                log.warn("error while stopping {}", resource, e);
            }
        }
    }
}
