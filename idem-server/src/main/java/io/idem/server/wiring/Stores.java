package io.idem.server.wiring;

import io.idem.core.breaker.BreakerStore;
import io.idem.core.budget.SpendStore;
import io.idem.core.spi.AlertLedger;
import io.idem.core.spi.ApiKeys;
import io.idem.core.spi.AuditLog;
import io.idem.core.spi.BacklogReads;
import io.idem.core.spi.CancelStore;
import io.idem.core.spi.ChatIdempotencyStore;
import io.idem.core.spi.DashboardReads;
import io.idem.core.spi.EventReads;
import io.idem.core.spi.IncidentLedger;
import io.idem.core.spi.InvoiceChecks;
import io.idem.core.spi.JobIntake;
import io.idem.core.spi.JobQueueStore;
import io.idem.core.spi.JobReads;
import io.idem.core.spi.KeySpend;
import io.idem.core.spi.Outbox;
import io.idem.core.spi.ProviderSignals;
import io.idem.core.spi.ReviewStore;
import io.idem.core.spi.SignalReads;
import io.idem.core.spi.WebhookSubscriptions;
import io.idem.core.spi.Webhooks;
import io.idem.postgres.Database;
import io.idem.postgres.PgAlertLedger;
import io.idem.postgres.PgApiKeys;
import io.idem.postgres.PgAuditLog;
import io.idem.postgres.PgBacklogReads;
import io.idem.postgres.PgBreakerStore;
import io.idem.postgres.PgCancelStore;
import io.idem.postgres.PgChatIdempotency;
import io.idem.postgres.PgDashboardReads;
import io.idem.postgres.PgEventReads;
import io.idem.postgres.PgIncidentLedger;
import io.idem.postgres.PgInvoiceChecks;
import io.idem.postgres.PgJobIntake;
import io.idem.postgres.PgJobQueueStore;
import io.idem.postgres.PgJobReads;
import io.idem.postgres.PgOutbox;
import io.idem.postgres.PgProviderSignals;
import io.idem.postgres.PgReviewStore;
import io.idem.postgres.PgSignalReads;
import io.idem.postgres.PgSpendStore;
import io.idem.postgres.PgWebhookSubscriptions;
import io.idem.postgres.PgWebhooks;

/**
 * Every store of a node, as the ports the rest of the server sees. {@link #on(Database)} is the one
 * place that chooses PostgreSQL for them.
 */
public record Stores(
        Jobs jobs,
        ApiKeys keys,
        AuditLog audit,
        SpendStore spend,
        KeySpend keySpend,
        BreakerStore breakers,
        ChatIdempotencyStore chatKeys,
        Watch watch,
        Outbound outbound) {

    /** The stores of the job path: intake, reads, the queue, review, cancel and vendor callbacks. */
    public record Jobs(
            JobIntake intake,
            JobReads reads,
            JobQueueStore queue,
            ReviewStore review,
            CancelStore cancels,
            Webhooks webhooks) {}

    /**
     * What operators watch: the backlog, the provider event log and alert ledger, incidents and their
     * signals, and the (opt-in) chat traffic the static tier is compiled from.
     */
    public record Watch(
            BacklogReads backlog,
            AlertLedger alerts,
            IncidentLedger incidents,
            SignalReads signals,
            InvoiceChecks invoices,
            DashboardReads dashboard,
            EventReads events,
            io.idem.core.spi.ChatTraffic traffic) {}
    /**
     * The stores of event webhooks: the outbox and its deliveries, the subscriptions, and the
     * provider signals (health flips, static-tier activity) that become events.
     */
    public record Outbound(Outbox outbox, WebhookSubscriptions subscriptions, ProviderSignals signals) {}

    /**
     * The same stores, with every end of a job that no worker decides (reconcile, an operator's
     * decision, a cancel) counted in {@code metrics}; the worker's own ends are counted by its
     * metered queue.
     */
    public Stores meteredBy(io.idem.server.metrics.Metrics metrics) {
        Jobs metered = new Jobs(
                jobs.intake(),
                jobs.reads(),
                jobs.queue(),
                metrics.meter(jobs.review(), jobs.reads()),
                metrics.meter(jobs.cancels(), jobs.reads()),
                jobs.webhooks());
        return new Stores(metered, keys, audit, spend, keySpend, breakers, chatKeys, watch, outbound);
    }

    /** The stores over one PostgreSQL database (its pool is shared by all of them). */
    public static Stores on(Database db) {
        PgSpendStore spend = new PgSpendStore(db);
        PgBacklogReads backlog = new PgBacklogReads(db);
        return new Stores(
                new Jobs(
                        new PgJobIntake(db),
                        new PgJobReads(db),
                        new PgJobQueueStore(db),
                        new PgReviewStore(db),
                        new PgCancelStore(db),
                        new PgWebhooks(db)),
                new PgApiKeys(db),
                new PgAuditLog(db),
                spend,
                spend,
                new PgBreakerStore(db),
                new PgChatIdempotency(db),
                new Watch(
                        backlog,
                        new PgAlertLedger(db),
                        new PgIncidentLedger(db),
                        new PgSignalReads(db, backlog),
                        new PgInvoiceChecks(db),
                        new PgDashboardReads(db),
                        new PgEventReads(db),
                        new io.idem.postgres.PgChatTraffic(db)),
                new Outbound(new PgOutbox(db), new PgWebhookSubscriptions(db), new PgProviderSignals(db)));
    }
}
