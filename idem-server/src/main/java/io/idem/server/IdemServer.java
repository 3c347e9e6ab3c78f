package io.idem.server;

import io.idem.core.engine.JobWorker;
import io.idem.core.engine.LeaseSweeper;
import io.idem.core.engine.ProviderRegistry;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.routing.Routing;
import io.idem.postgres.Database;
import io.idem.postgres.EmbeddedDatabase;
import io.idem.postgres.JobWakeups;
import io.idem.postgres.PgBreakerStore;
import io.idem.postgres.PgChatAudit;
import io.idem.providers.Adapters;
import io.idem.providers.fake.FakeVendorServer;
import io.idem.server.api.HttpApi;
import io.idem.server.assets.FileAssetStore;
import io.idem.server.auth.KeyService;
import io.idem.server.auth.ServerSecret;
import io.idem.server.config.IdemConfig;
import io.idem.server.wiring.Stores;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
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
        Stores stores = Stores.on(database);
        ServerSecret secret =
                config.secret().map(ServerSecret::of).orElseGet(() -> ServerSecret.loadOrCreate(config.dataDir()));

        Routing routing = withInProcessFakes(config);
        Map<String, ProviderRegistry.Provider> providers = new LinkedHashMap<>();
        routing.providers()
                .forEach((name, settings) ->
                        providers.put(name, new ProviderRegistry.Provider(settings, Adapters.create(settings))));
        ProviderRegistry registry = new ProviderRegistry(providers);

        KeyService keys = new KeyService(stores.keys(), clock);
        bootstrapAdmin(config, keys, console);

        var assets = new FileAssetStore(config.dataDir().resolve("assets"));
        var webhookLinks = new io.idem.server.api.WebhookLinks(config.publicUrl(), secret);
        var queue = stores.jobs().queue();
        String node = config.worker().workerId();
        breakers = new io.idem.core.breaker.CircuitBreakers(stores.breakers(), config.breaker(), clock, node);
        Map<String, java.math.BigDecimal> dailyBudgets = new LinkedHashMap<>();
        routing.providers()
                .forEach((name, settings) -> settings.dailyBudgetUsd().ifPresent(b -> dailyBudgets.put(name, b)));
        config.chat()
                .chatOnlyProviders()
                .forEach((name, settings) -> settings.dailyBudgetUsd().ifPresent(b -> dailyBudgets.put(name, b)));
        var gate = new io.idem.core.engine.ProviderGate(
                breakers, new io.idem.core.budget.ProviderBudgets(stores.spend(), dailyBudgets, clock));
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
        JobWakeups wakeups = new JobWakeups(database, wakeWorkers, Map.of(PgBreakerStore.CHANNEL, provider -> {
            if ("*".equals(provider)) {
                cachedBreakers.refreshAll();
            } else {
                cachedBreakers.refresh(provider);
            }
        }));
        resources.push(wakeups);
        var intake = stores.jobs().intake();
        var review = stores.jobs().review();
        Runnable requeued = () -> {
            wakeWorkers.run();
            wakeups.announce();
        };
        reconciler = new io.idem.core.engine.Reconciler(
                review, registry, assets, clock, config.reconcileInterval(), config.reconcileMaxAge(), requeued);
        resources.push(reconciler);
        var canceller = new io.idem.core.engine.JobCanceller(stores.jobs().cancels(), registry, clock);
        resources.push(
                Maintenance.purgeEvery("idempotency keys", Duration.ofMinutes(10), intake::purgeExpiredKeys, clock));

        if (config.role().servesApi()) {
            // Chat calls share the provider gate (breakers, budgets) with jobs; the audit writer and
            // the chat node are pushed before the HTTP server, so they stop after it and the audit
            // writer commits all it holds.
            var chatAudit = new PgChatAudit(database);
            resources.push(chatAudit);
            chat = io.idem.server.chat.ChatNode.start(new io.idem.server.chat.ChatNode.Parts(
                    config.chat(),
                    routing,
                    new io.idem.server.chat.ChatNode.Stores(stores.chatKeys(), stores.keySpend(), chatAudit),
                    gate,
                    secret,
                    config.idempotencyRetention(),
                    config.healthEvery(),
                    clock));
            resources.push(chat);
            http = HttpApi.start(
                    config,
                    new HttpApi.Parts(
                            stores,
                            this::databaseReachable,
                            keys,
                            secret,
                            registry,
                            routing,
                            assets,
                            requeued,
                            reconciler,
                            canceller,
                            webhookLinks,
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
