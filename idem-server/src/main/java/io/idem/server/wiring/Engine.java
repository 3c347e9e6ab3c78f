package io.idem.server.wiring;

import io.idem.core.breaker.CircuitBreakers;
import io.idem.core.budget.ProviderBudgets;
import io.idem.core.engine.HealthSentinel;
import io.idem.core.engine.JobCanceller;
import io.idem.core.engine.JobWorker;
import io.idem.core.engine.LeaseSweeper;
import io.idem.core.engine.Periodic;
import io.idem.core.engine.ProviderGate;
import io.idem.core.engine.ProviderRegistry;
import io.idem.core.engine.Reconciler;
import io.idem.core.invoice.InvoiceReconciler;
import io.idem.core.routing.Routing;
import io.idem.core.spi.AssetStore;
import io.idem.core.time.Ticker;
import io.idem.postgres.Database;
import io.idem.postgres.JobWakeups;
import io.idem.postgres.PgBreakerStore;
import io.idem.providers.Adapters;
import io.idem.server.config.IdemConfig;
import io.idem.server.hooks.WebhookLinks;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The job engine of one node: provider adapters, the shared breakers and budgets behind one gate,
 * the health sentinel, the reconciler and canceller, cross-node wake-ups, the purge of expired
 * idempotency keys, and (on a node that runs one) the worker and its lease sweeper. {@link #start()}
 * sets the loops going once the rest of the node is up; {@link #close()} stops everything in
 * reverse order of construction.
 */
public final class Engine implements AutoCloseable {
    private static final Duration PURGE_EVERY = Duration.ofMinutes(10);
    private static final Duration SWEEP_EVERY = Duration.ofSeconds(5);
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(5);

    /** What the engine is built from. */
    public record Parts(
            IdemConfig config,
            Stores stores,
            Routing routing,
            AssetStore assets,
            WebhookLinks webhookLinks,
            Database database,
            InstantSource clock,
            Vendor vendor) {}

    /**
     * How adapters reach vendors: where they read their keys (the configuration's credentials), the
     * node's redactor, through which everything a vendor says passes, and the node's metrics, which
     * count and time every call.
     */
    public record Vendor(
            java.util.function.UnaryOperator<String> keys,
            io.idem.core.text.Redactor redactor,
            io.idem.server.metrics.Metrics metrics) {}

    /** The invoice check looks for a day to check this often (it runs once per provider and day). */
    private static final Duration INVOICE_EVERY = Duration.ofMinutes(10);

    private static final Duration INVOICE_FIRST = Duration.ofMinutes(1);

    private final Resources resources = new Resources();
    private ProviderRegistry registry;
    private CircuitBreakers breakers;
    private ProviderGate gate;
    private HealthSentinel sentinel;
    private JobWorker worker;
    private LeaseSweeper sweeper;
    private Reconciler reconciler;
    private JobCanceller canceller;
    private InvoiceReconciler invoices;
    private Runnable requeued;
    /** One moderator for the worker and the reconcile sweep (its HTTP client is built once). */
    private io.idem.core.moderation.ModerationPolicy moderation;

    private WebhookLinks webhookLinks;

    private Engine() {}

    /** Builds the engine (nothing runs until {@link #start()}); on failure closes what it built. */
    public static Engine build(Parts parts) {
        Engine engine = new Engine();
        try {
            engine.assemble(parts);
            return engine;
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    private void assemble(Parts parts) {
        IdemConfig config = parts.config();
        InstantSource clock = parts.clock();
        webhookLinks = parts.webhookLinks();
        moderation = Moderation.policy(config);
        registry = registry(parts.routing(), parts.vendor(), parts.clock());
        breakers = new CircuitBreakers(
                parts.stores().breakers(),
                config.engine().breaker(),
                clock,
                config.engine().worker().workerId());
        gate = new ProviderGate(breakers, new ProviderBudgets(parts.stores().spend(), dailyBudgets(parts), clock));
        sentinel = push(new HealthSentinel(
                registry,
                breakers,
                clock,
                io.idem.core.time.Ticker.system(),
                config.engine().healthEvery(),
                HEALTH_TIMEOUT,
                parts.stores().outbound().signals(),
                config.engine().worker().workerId()));
        Runnable wakeLocal = config.role().runsWorker() ? startWorker(parts) : () -> {};
        JobWakeups wakeups =
                push(new JobWakeups(parts.database(), wakeLocal, Map.of(PgBreakerStore.CHANNEL, this::refreshBreaker)));
        requeued = () -> {
            wakeLocal.run();
            wakeups.announce();
        };
        reconciler = push(new Reconciler(
                parts.stores().jobs().review(),
                registry,
                parts.assets(),
                clock,
                new Reconciler.Timing(
                        config.engine().reconcileInterval(), config.engine().reconcileMaxAge()),
                requeued,
                config.engine().reviewOnly(),
                moderation));
        canceller = new JobCanceller(parts.stores().jobs().cancels(), registry, clock);
        invoices = new InvoiceReconciler(
                registry,
                parts.stores().watch().invoices(),
                clock,
                config.engine().invoices());
        push(Maintenance.purgeEvery(
                "idempotency keys", PURGE_EVERY, parts.stores().jobs().intake()::purgeExpiredKeys, clock));
        // Every node, API nodes too: chat holds are taken there. Settles holds whose caller died.
        push(Maintenance.purgeEvery("budget holds", SWEEP_EVERY, parts.stores().spend()::sweepHolds, clock));
    }

    private static ProviderRegistry registry(Routing routing, Vendor vendor, InstantSource clock) {
        Map<String, ProviderRegistry.Provider> providers = new LinkedHashMap<>();
        routing.providers()
                .forEach((name, settings) -> providers.put(
                        name,
                        new ProviderRegistry.Provider(
                                settings,
                                vendor.metrics()
                                        .meter(
                                                settings,
                                                Adapters.create(settings, vendor.keys(), vendor.redactor(), clock)))));
        return new ProviderRegistry(providers, vendor.redactor());
    }

    /** Daily budgets of job providers and chat-only providers alike: both spend through the gate. */
    private static Map<String, BigDecimal> dailyBudgets(Parts parts) {
        Map<String, BigDecimal> budgets = new LinkedHashMap<>();
        parts.routing()
                .providers()
                .forEach((name, settings) -> settings.dailyBudgetUsd().ifPresent(b -> budgets.put(name, b)));
        parts.config()
                .chat()
                .chatOnlyProviders()
                .forEach((name, settings) -> settings.dailyBudgetUsd().ifPresent(b -> budgets.put(name, b)));
        return budgets;
    }

    /** The worker and its lease sweeper; returns how to wake the worker. */
    private Runnable startWorker(Parts parts) {
        var queue = parts.vendor().metrics().meter(parts.stores().jobs().queue());
        worker = push(new JobWorker(
                queue,
                registry,
                parts.assets(),
                parts.clock(),
                Ticker.system(),
                parts.config().engine().worker(),
                webhookLinks,
                gate,
                parts.config().engine().deferral(),
                moderation));
        JobWorker w = worker;
        sweeper = push(new LeaseSweeper(queue, parts.clock(), SWEEP_EVERY, w::wake));
        return w::wake;
    }

    /** Another node moved a breaker ({@code *}: several): re-read it. */
    private void refreshBreaker(String provider) {
        if ("*".equals(provider)) {
            breakers.refreshAll();
        } else {
            breakers.refresh(provider);
        }
    }

    private <T extends AutoCloseable> T push(T resource) {
        return resources.push(resource);
    }

    /** Starts the loops: the worker, its sweeper and the reconciler (on a worker node), the sentinel. */
    public void start() {
        if (worker != null) {
            worker.start();
            sweeper.start();
            reconciler.start();
            push(Periodic.start("invoice check", INVOICE_FIRST, INVOICE_EVERY, invoices::tick));
        }
        sentinel.start();
    }

    public ProviderRegistry registry() {
        return registry;
    }

    public CircuitBreakers breakers() {
        return breakers;
    }

    public ProviderGate gate() {
        return gate;
    }

    public HealthSentinel sentinel() {
        return sentinel;
    }

    /** Null on a node that runs no worker. */
    public JobWorker worker() {
        return worker;
    }

    /** Null on a node that runs no worker. */
    public LeaseSweeper sweeper() {
        return sweeper;
    }

    public Reconciler reconciler() {
        return reconciler;
    }

    /** The daily invoice check, which an operator may also run for a provider and day. */
    public InvoiceReconciler invoices() {
        return invoices;
    }

    public JobCanceller canceller() {
        return canceller;
    }

    /** Wakes this node's worker and tells the other nodes: a job went back to the queue. */
    public Runnable requeued() {
        return requeued;
    }

    public WebhookLinks webhookLinks() {
        return webhookLinks;
    }

    @Override
    public void close() {
        resources.close();
    }
}
