package io.idem.server.metrics;

import io.idem.core.breaker.BreakerState;
import io.idem.core.chat.ChatAttempt;
import io.idem.core.chat.ChatAuditSink;
import io.idem.core.chat.FailoverEvent;
import io.idem.core.outcome.Outcome;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.BacklogReads;
import io.idem.core.spi.ProviderAdapter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collection;

/**
 * The node's metrics in Prometheus' text format ({@code GET /metrics}). Every name has the one
 * {@code idem_} prefix and a base unit; labels are bounded sets (kind, provider, model, outcome,
 * billable, state) and never a job, key or user id. Calls are counted as they end on this node
 * (sum over nodes in Prometheus); the backlog gauges read the shared database, so every node reports
 * the same cluster-wide value. Thread-safe.
 */
public final class Metrics {
    /** Attempt latency buckets: a chat token in tens of milliseconds up to a video in minutes. */
    static final Duration[] LATENCY_BUCKETS = {
        Duration.ofMillis(50),
        Duration.ofMillis(100),
        Duration.ofMillis(250),
        Duration.ofMillis(500),
        Duration.ofSeconds(1),
        Duration.ofMillis(2500),
        Duration.ofSeconds(5),
        Duration.ofSeconds(10),
        Duration.ofSeconds(30),
        Duration.ofSeconds(60),
        Duration.ofSeconds(120),
        Duration.ofSeconds(300)
    };

    /** Gateway overhead buckets: a millisecond up to a second. */
    static final Duration[] OVERHEAD_BUCKETS = {
        Duration.ofMillis(1),
        Duration.ofMillis(2),
        Duration.ofMillis(5),
        Duration.ofMillis(10),
        Duration.ofMillis(25),
        Duration.ofMillis(50),
        Duration.ofMillis(100),
        Duration.ofMillis(250),
        Duration.ofSeconds(1)
    };

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    public Metrics() {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** The registry's content in the Prometheus text format (version 0.0.4). */
    public String scrape() {
        return registry.scrape();
    }

    /** {@code adapter}, with every generation it makes counted and timed under {@code provider}. */
    public ProviderAdapter meter(ProviderSettings provider, ProviderAdapter adapter) {
        return new MeteredAdapter(provider, adapter, this);
    }

    /** The capture rate of each provider's latest invoice check (audit ÷ vendor; NaN before the first). */
    public void watchInvoices(
            Collection<String> providers, io.idem.core.spi.InvoiceChecks checks, InstantSource clock) {
        InvoiceSnapshot snapshot = new InvoiceSnapshot(checks, clock);
        for (String provider : providers) {
            Gauge.builder("idem.invoice.capture.ratio", () -> snapshot.captureRate(provider))
                    .description("Audit over the vendor's own usage report for the latest checked day")
                    .tags("provider", provider)
                    .register(registry);
        }
    }

    /** {@code store}, with the jobs the worker ends and their failovers counted. */
    public io.idem.core.spi.JobQueueStore meter(io.idem.core.spi.JobQueueStore store) {
        return new MeteredQueue(store, this);
    }

    /** {@code store}, with the jobs a reconcile or an operator ends counted. */
    public io.idem.core.spi.ReviewStore meter(io.idem.core.spi.ReviewStore store, io.idem.core.spi.JobReads reads) {
        return new MeteredReview(store, new MeteredEnds(this, reads));
    }

    /** {@code store}, with the jobs a cancel ends (or parks) counted. */
    public io.idem.core.spi.CancelStore meter(io.idem.core.spi.CancelStore store, io.idem.core.spi.JobReads reads) {
        return new MeteredCancels(store, new MeteredEnds(this, reads));
    }

    void jobEnded(String lane, String state, java.util.Optional<Duration> toResult) {
        Counter.builder("idem.jobs.finished")
                .description("Jobs that ended on this node (succeeded, failed, canceled) or were parked in"
                        + " manual_review, whoever decided: the worker, a reconcile, an operator or a cancel")
                .tags("lane", lane, "state", state)
                .register(registry)
                .increment();
        toResult.ifPresent(took -> Timer.builder("idem.job.time.to.result")
                .description("From a job's acceptance to its result, failovers and deferrals included")
                .serviceLevelObjectives(LATENCY_BUCKETS)
                .tags("lane", lane)
                .register(registry)
                .record(took));
    }

    void jobFellBack(String lane, String from, String to, String reason) {
        fallback("job", lane, from, to, reason);
    }

    private void fallback(String kind, String lane, String from, String to, String reason) {
        Counter.builder("idem.fallbacks")
                .description("Failovers to the next candidate: providers for jobs, models for chat chains")
                .tags(Tags.of("kind", kind, "lane", lane, "from", from, "to", to, "reason", reason))
                .register(registry)
                .increment();
    }

    /**
     * The static tier's coverage: answers it had prepared for the prompt, and answers that were the
     * degradation notice alone (a prompt worth preparing an answer for).
     */
    public <T> void staticTier(
            String provider,
            T tier,
            java.util.function.ToDoubleFunction<T> prepared,
            java.util.function.ToDoubleFunction<T> notices) {
        // the registry holds its source weakly: the tier itself, which its node keeps, is the source
        staticAnswers(provider, "prepared", tier, prepared);
        staticAnswers(provider, "notice", tier, notices);
    }

    private <T> void staticAnswers(
            String provider, String answer, T tier, java.util.function.ToDoubleFunction<T> count) {
        io.micrometer.core.instrument.FunctionCounter.builder("idem.static.answers", tier, count)
                .description("Answers of the static tier: a prepared answer, or the degradation notice alone")
                .tags("provider", provider, "answer", answer)
                .register(registry);
    }

    /**
     * A plain chat call's gateway overhead: its time in Idem (from the request's arrival to the
     * chain's end) minus the time its attempts spent waiting on providers.
     */
    public void chatCallEnded(Duration total, java.util.List<ChatAttempt> attempts) {
        Duration waiting = attempts.stream().map(ChatAttempt::latency).reduce(Duration.ZERO, Duration::plus);
        Duration overhead = total.minus(waiting);
        Timer.builder("idem.chat.overhead")
                .description("A plain chat call's time in Idem besides waiting on providers")
                .serviceLevelObjectives(OVERHEAD_BUCKETS)
                .register(registry)
                .record(overhead.isNegative() ? Duration.ZERO : overhead);
    }

    /** A sink that counts every chat attempt and failover it is told about. */
    public ChatAuditSink chatAudit() {
        return new ChatAuditSink() {
            @Override
            public void attempt(ChatAttempt attempt) {
                chatAttemptEnded(attempt);
            }

            @Override
            public void failover(FailoverEvent event) {
                fallback(
                        "chat",
                        event.from().caller().lane(),
                        event.from().model().name(),
                        event.toModel(),
                        event.reason());
            }
        };
    }

    /** The gauges over shared state: providers' breakers, health and budgets, and the backlog. */
    public void watch(Collection<String> providers, ProviderState state, BacklogReads reads, InstantSource clock) {
        BacklogGauge backlog = BacklogSnapshot.over(reads, clock);
        for (String provider : providers) {
            Tags tags = Tags.of("provider", provider);
            Gauge.builder("idem.breaker.state", () -> breakerValue(state.breaker(provider)))
                    .description("Circuit breaker per provider: 0 closed, 1 half-open, 2 open")
                    .tags(tags)
                    .register(registry);
            Gauge.builder(
                            "idem.provider.healthy",
                            () -> state.healthy(provider)
                                    .map(h -> h ? 1.0 : 0.0)
                                    .orElse(Double.NaN))
                    .description("The health sentinel's last check: 1 healthy, 0 unhealthy, NaN not checked yet")
                    .tags(tags)
                    .register(registry);
            Gauge.builder(
                            "idem.budget.used.ratio",
                            () -> state.budgetUsedRatio(provider).orElse(Double.NaN))
                    .description("Today's spend over the provider's daily budget (NaN: no budget)")
                    .tags(tags)
                    .register(registry);
        }
        for (String jobState : new String[] {"queued", "running", "manual_review"}) {
            Gauge.builder("idem.jobs", () -> backlog.count(jobState))
                    .description("Jobs in a waiting state, cluster-wide")
                    .tags("state", jobState)
                    .register(registry);
        }
        Gauge.builder("idem.review.oldest.age", backlog::oldestReviewAgeSeconds)
                .description("How long the longest-parked job has waited for reconcile or an operator")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("idem.money.at.risk", backlog::moneyAtRiskUsd)
                .description("Expected cost of job and chat attempts whose billing is unknown, cluster-wide")
                .baseUnit("usd")
                .register(registry);
        Gauge.builder("idem.unknown.attempts", backlog::unknownAttempts)
                .description("Job and chat attempts whose billing is unknown (in flight or unconfirmed)")
                .register(registry);
    }

    void jobAttemptEnded(String provider, String model, Outcome outcome, Duration latency, BigDecimal cost) {
        attempts(
                        "job",
                        provider,
                        model,
                        outcomeName(outcome),
                        outcome.billable().wire())
                .increment();
        latency("job", provider).record(latency);
        spend("job", provider, outcome.billable().wire(), cost);
    }

    private void spend(String kind, String provider, String billable, BigDecimal cost) {
        if (cost.signum() > 0) {
            Counter.builder("idem.spend")
                    .description("What attempts cost as the audit counts it (billable yes: charged; unknown: at risk)")
                    .baseUnit("usd")
                    .tags("kind", kind, "provider", provider, "billable", billable)
                    .register(registry)
                    .increment(cost.doubleValue());
        }
    }

    private void chatAttemptEnded(ChatAttempt attempt) {
        var result = attempt.result();
        String provider = attempt.model().provider();
        attempts(
                        "chat",
                        provider,
                        attempt.model().vendorModel(),
                        result.outcome(),
                        result.billable().wire())
                .increment();
        spend("chat", provider, result.billable().wire(), result.costUsd());
        if (result.outcome().equals(io.idem.core.chat.AttemptResult.SKIPPED)) {
            return;
        }
        latency("chat", provider).record(attempt.latency());
        attempt.firstToken()
                .ifPresent(first -> Timer.builder("idem.chat.time.to.first.token")
                        .description("Time to the first content token of a streamed chat attempt")
                        .serviceLevelObjectives(LATENCY_BUCKETS)
                        .tags("provider", provider)
                        .register(registry)
                        .record(first));
    }

    private Counter attempts(String kind, String provider, String model, String outcome, String billable) {
        return Counter.builder("idem.attempts")
                .description("Provider attempts that ended on this node, by outcome and whether they bill")
                .tags(Tags.of(
                        "kind", kind, "provider", provider, "model", model, "outcome", outcome, "billable", billable))
                .register(registry);
    }

    private Timer latency(String kind, String provider) {
        return Timer.builder("idem.attempt.duration")
                .description("How long a provider attempt took, send to answer (or to giving up)")
                .serviceLevelObjectives(LATENCY_BUCKETS)
                .tags("kind", kind, "provider", provider)
                .register(registry);
    }

    /** The outcome class of a job attempt: {@code confirmed}, {@code unavailable}, {@code rejected}, … */
    static String outcomeName(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Confirmed c -> "confirmed";
            case Outcome.Unavailable u -> "unavailable";
            case Outcome.Rejected r -> "rejected";
            case Outcome.Unconfirmed u -> "unconfirmed";
            case Outcome.AdapterFault f -> "adapter_fault";
        };
    }

    private static double breakerValue(BreakerState state) {
        return switch (state) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            case OPEN -> 2;
        };
    }

    /** What the provider gauges read; implemented over the gate and the health sentinel. */
    public interface ProviderState {
        BreakerState breaker(String provider);

        java.util.Optional<Boolean> healthy(String provider);

        java.util.Optional<Double> budgetUsedRatio(String provider);
    }

    /** Backlog values from one shared snapshot, refreshed at most every few seconds. */
    public interface BacklogGauge {
        double count(String state);

        double oldestReviewAgeSeconds();

        double moneyAtRiskUsd();

        double unknownAttempts();
    }
}
