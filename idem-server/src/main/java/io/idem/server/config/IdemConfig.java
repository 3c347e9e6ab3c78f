package io.idem.server.config;

import io.idem.core.breaker.BreakerSettings;
import io.idem.core.chat.ChatRouting;
import io.idem.core.engine.DeferralSettings;
import io.idem.core.engine.WorkerSettings;
import io.idem.core.routing.Routing;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Idem's validated, immutable configuration (DESIGN §7). Built once at start by {@link
 * ConfigLoader}; secrets are held as values here but never rendered by {@link #describe()} or
 * {@link Secrets#toString()}.
 *
 * @param inProcessFakes providers whose fake vendor runs inside this process (no base_url given)
 * @param chat chat models, chat-only providers and lane policies for {@code /v1/chat/completions}
 * @param alerts where operators hear about incidents, and the quiet period that keeps flaps out
 * @param webhooks how event webhooks are sent, and where they may go
 */
public record IdemConfig(
        NodeRole role,
        Http http,
        Storage storage,
        Secrets secrets,
        Routing routing,
        Set<String> inProcessFakes,
        Engine engine,
        ChatRouting chat,
        AlertSettings alerts,
        Webhooks webhooks) {

    public IdemConfig {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(secrets, "secrets");
        Objects.requireNonNull(routing, "routing");
        inProcessFakes = Set.copyOf(inProcessFakes);
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(alerts, "alerts");
        Objects.requireNonNull(webhooks, "webhooks");
    }

    /** The configuration as {@link #describe()} renders it: a record's own rendering would print secrets. */
    @Override
    public String toString() {
        return describe();
    }

    /**
     * Every secret value this configuration holds, by where it came from (for a warning that must
     * name a value without showing it): the provider keys, the server secret, the bootstrap key and
     * the database password, the metrics scrape token.
     */
    public Map<String, String> secretValues() {
        Map<String, String> values = new java.util.LinkedHashMap<>(secrets.credentials());
        secrets.secret().ifPresent(value -> values.put("IDEM_SECRET", value));
        secrets.bootstrapKey().ifPresent(value -> values.put("IDEM_BOOTSTRAP_KEY", value));
        secrets.metricsToken().ifPresent(value -> values.put("IDEM_METRICS_TOKEN", value));
        for (AlertSettings.Channel channel : alerts.channels()) {
            List<String> secret = channel.secrets();
            for (int i = 0; i < secret.size(); i++) {
                values.put("alerts channel '" + channel.name() + "' secret " + (i + 1), secret.get(i));
            }
        }
        storage.databaseUrl().flatMap(IdemConfig::databasePassword).ifPresent(raw -> {
            values.put("IDEM_DATABASE_URL password", raw);
            values.put(
                    "IDEM_DATABASE_URL password (decoded)",
                    java.net.URLDecoder.decode(raw, java.nio.charset.StandardCharsets.UTF_8));
        });
        return values;
    }

    /** The {@code password} parameter of a JDBC URL, as written. */
    static Optional<String> databasePassword(String jdbcUrl) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("[?&]password=([^&]*)").matcher(jdbcUrl);
        return m.find() && !m.group(1).isEmpty() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /**
     * Where and how the API listens.
     *
     * @param maxRequestBytes the largest request body any route reads
     * @param openaiWait how long {@code POST /v1/images/generations} waits for its job to end
     * @param publicUrl the address vendors can reach Idem at, for their callbacks (none: no callbacks)
     * @param trustedProxies the peers whose X-Forwarded-For / X-Forwarded-Proto headers are believed
     * @param metricsPort a separate management port serving only {@code GET /metrics} (on {@code
     *     host}), so a worker-only node can be scraped too; none: metrics on the API port only
     */
    public record Http(
            String host,
            int port,
            long maxRequestBytes,
            Duration openaiWait,
            Optional<URI> publicUrl,
            TrustedProxies trustedProxies,
            Optional<Integer> metricsPort) {
        public Http {
            Objects.requireNonNull(host, "host");
            if (port < 0 || port > 65535) {
                throw new ConfigException("port must be 0..65535, was " + port);
            }
            Objects.requireNonNull(trustedProxies, "trustedProxies");
            Objects.requireNonNull(metricsPort, "metricsPort");
        }
    }

    /**
     * Where data lives.
     *
     * @param dataDir assets, the embedded database and a generated server secret
     * @param databaseUrl a JDBC URL; none: the embedded PostgreSQL under {@code dataDir}
     */
    /**
     * Where data lives.
     *
     * @param answerRetention how long the answers served to single-turn chat prompts are kept to
     *     compile the static tier from ({@code idem static build}); zero: none are kept (the default)
     */
    public record Storage(Path dataDir, Optional<String> databaseUrl, Duration answerRetention) {
        public Storage {
            Objects.requireNonNull(dataDir, "dataDir");
            Objects.requireNonNull(answerRetention, "answerRetention");
        }

        public Storage(Path dataDir, Optional<String> databaseUrl) {
            this(dataDir, databaseUrl, Duration.ZERO);
        }
    }

    /**
     * What the operator may set as secrets.
     *
     * @param secret the server secret (HMACs, signed links); none: generated once under the data dir
     * @param bootstrapKey the first admin key; none: one is generated and printed once
     * @param metricsToken the bearer token a Prometheus scraper presents on {@code GET /metrics};
     *     none: only an admin key may scrape
     */
    public record Secrets(
            Optional<String> secret,
            Optional<String> bootstrapKey,
            Map<String, String> credentials,
            Optional<String> metricsToken) {
        public Secrets {
            credentials = Map.copyOf(credentials);
            java.util.Objects.requireNonNull(metricsToken, "metricsToken");
        }

        /** Without a scrape token. */
        public Secrets(Optional<String> secret, Optional<String> bootstrapKey, Map<String, String> credentials) {
            this(secret, bootstrapKey, credentials, Optional.empty());
        }

        @Override
        public String toString() {
            return "Secrets[secret=" + (secret.isPresent() ? "[set]" : "[none]") + ", bootstrapKey="
                    + (bootstrapKey.isPresent() ? "[set]" : "[none]") + ", credentials=" + credentials.keySet()
                    + ", metricsToken=" + (metricsToken.isPresent() ? "[set]" : "[none]") + "]";
        }
    }

    /**
     * The job engine's settings (breakers, retention and health checks serve chat calls too).
     *
     * @param reconcileMaxAge how long a parked job is asked about before an operator must decide
     * @param idempotencyRetention how long an idempotency key (jobs and chat) is kept
     * @param healthEvery the pause between a provider's health checks
     * @param sdkRetries how SDK retries of a keyless request are merged into it
     * @param deferral job deadlines (default and maximum) and whether a spent budget makes jobs wait
     * @param reviewOnly providers whose parked jobs the reconcile sweep leaves in the review queue
     *     for an operator: the demo's fake providers, none once providers are configured
     */
    public record Engine(
            WorkerSettings worker,
            io.idem.core.engine.Reconciler.Timing reconcile,
            Duration idempotencyRetention,
            BreakerSettings breaker,
            Duration healthEvery,
            SdkRetries sdkRetries,
            DeferralSettings deferral,
            io.idem.core.invoice.InvoiceSettings invoices,
            Set<String> reviewOnly,
            ModerationSettings moderation) {
        public Engine {
            reviewOnly = Set.copyOf(reviewOnly);
            java.util.Objects.requireNonNull(moderation, "moderation");
        }

        /** How often the reconcile sweep runs. */
        public Duration reconcileInterval() {
            return reconcile.interval();
        }

        /** How long a parked job is asked about before it expires. */
        public Duration reconcileMaxAge() {
            return reconcile.maxAge();
        }
    }

    /**
     * Outbound event webhooks (subscriptions and job callbacks).
     *
     * @param allowPrivateUrls whether events may go to loopback and private addresses (tests, a
     *     receiver on the same network); off by default
     * @param timeout how long one attempt may take
     * @param firstRetry the pause after a first failed attempt (it doubles up to an hour)
     * @param giveUpAfter how long after an event its deliveries are still tried
     * @param poll how often each node looks for new events and due deliveries
     * @param retention how long ended deliveries stay in the delivery log
     */
    public record Webhooks(
            boolean allowPrivateUrls,
            Duration timeout,
            Duration firstRetry,
            Duration giveUpAfter,
            Duration poll,
            Duration retention) {
        public Webhooks {
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(firstRetry, "firstRetry");
            Objects.requireNonNull(giveUpAfter, "giveUpAfter");
            Objects.requireNonNull(poll, "poll");
            Objects.requireNonNull(retention, "retention");
        }

        /** How long a claim keeps a delivery from other nodes: three attempts' time. */
        public Duration lease() {
            return timeout.multipliedBy(3);
        }
    }

    /**
     * The windows in which an SDK's retry of a request without {@code Idempotency-Key} is merged
     * into it.
     *
     * @param defaultWindow one attempt's span when a retry announces no timeout
     * @param maxWindow the longest a retry may come after the request it repeats
     */
    public record SdkRetries(Duration defaultWindow, Duration maxWindow) {
        public SdkRetries {
            Objects.requireNonNull(defaultWindow, "defaultWindow");
            Objects.requireNonNull(maxWindow, "maxWindow");
            if (defaultWindow.compareTo(maxWindow) > 0) {
                throw new ConfigException("sdk_retry_window_seconds (" + defaultWindow.toSeconds()
                        + ") must not be longer than sdk_retry_max_window_seconds (" + maxWindow.toSeconds() + ")");
            }
        }
    }

    /**
     * The value of every variable a provider's {@code api_key_env} names (job and chat-only
     * providers), as the environment held it at start: adapters read their keys here and the
     * redactor hides every one of them. Never rendered. A shortcut for {@code secrets().credentials()}.
     */
    public Map<String, String> credentials() {
        return secrets.credentials();
    }

    /** The API's port (a shortcut for {@code http().port()}). */
    public int port() {
        return http.port();
    }

    /** A shortcut for {@code http().openaiWait()}. */
    public Duration openaiWait() {
        return http.openaiWait();
    }

    /** A shortcut for {@code http().trustedProxies()}. */
    public TrustedProxies trustedProxies() {
        return http.trustedProxies();
    }

    /** Which parts of Idem this node runs. */
    public enum NodeRole {
        API,
        WORKER,
        ALL;

        public boolean servesApi() {
            return this != WORKER;
        }

        public boolean runsWorker() {
            return this != API;
        }
    }

    /** The effective configuration, secrets redacted, for the one start-up log line. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        out.append("host=").append(http.host()).append(" port=").append(http.port());
        out.append(" data_dir=").append(storage.dataDir());
        out.append(" database=")
                .append(storage.databaseUrl().map(IdemConfig::redactUrl).orElse("embedded"));
        out.append(" secret=").append(secrets.secret().isPresent() ? "[set]" : "[generated]");
        out.append(" bootstrap_key=").append(secrets.bootstrapKey().isPresent() ? "[set]" : "[none]");
        out.append(" metrics_token=").append(secrets.metricsToken().isPresent() ? "[set]" : "[none]");
        out.append(" role=").append(role.name().toLowerCase(java.util.Locale.ROOT));
        out.append(" worker.concurrency=").append(engine.worker().concurrency());
        out.append(" worker.lease=").append(engine.worker().lease().toSeconds()).append('s');
        out.append(" openai_wait=").append(http.openaiWait().toSeconds()).append('s');
        out.append(" sdk_retry_window=")
                .append(engine.sdkRetries().defaultWindow().toSeconds())
                .append("s sdk_retry_max_window=")
                .append(engine.sdkRetries().maxWindow().toSeconds())
                .append('s');
        out.append(" reconcile_interval=")
                .append(engine.reconcileInterval().toSeconds())
                .append('s');
        out.append(" reconcile_max_age=")
                .append(engine.reconcileMaxAge().toSeconds())
                .append('s');
        if (!engine.reviewOnly().isEmpty()) {
            out.append(" reconcile_sweep_leaves=").append(new java.util.TreeSet<>(engine.reviewOnly()));
        }
        out.append(" breaker.failure_threshold=").append(engine.breaker().failureThreshold());
        out.append(" public_url=")
                .append(http.publicUrl().map(u -> redactUrl(u.toString())).orElse("[none]"));
        out.append(" trusted_proxies=").append(http.trustedProxies());
        out.append(" job_deadline=")
                .append(engine.deferral().defaultDeadline().toSeconds())
                .append("s (max ")
                .append(engine.deferral().maxDeadline().toSeconds())
                .append("s) defer_on_budget_exhausted=")
                .append(engine.deferral().onBudgetExhausted());
        out.append(" idempotency_retention=")
                .append(engine.idempotencyRetention().toHours())
                .append('h');
        describeRouting(out);
        return out.toString();
    }

    /** Providers, chat models, lanes and alert channels: names and addresses, never a secret. */
    private void describeRouting(StringBuilder out) {
        routing.providers()
                .values()
                .forEach(p -> out.append(" provider.")
                        .append(p.name())
                        .append("=")
                        .append(p.adapter())
                        .append('@')
                        .append(
                                inProcessFakes.contains(p.name())
                                        ? "in-process"
                                        : redactUrl(p.baseUrl().toString()))
                        .append(p.apiKeyEnv().map(env -> " key_env=" + env).orElse("")));
        chat.models()
                .values()
                .forEach(m ->
                        out.append(" chat_model.").append(m.name()).append('=').append(m.provider()));
        routing.lanes()
                .forEach((lane, members) ->
                        out.append(" lane.").append(lane).append("=").append(members));
        out.append(" webhooks=[timeout=")
                .append(webhooks.timeout().toSeconds())
                .append("s first_retry=")
                .append(webhooks.firstRetry().toSeconds())
                .append("s give_up=")
                .append(webhooks.giveUpAfter().toHours())
                .append("h allow_private_urls=")
                .append(webhooks.allowPrivateUrls())
                .append(']');
        out.append(" alerts=")
                .append(alerts.channels().stream()
                        .map(c ->
                                c.name() + "[" + c.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + "]")
                        .toList());
    }

    /** Drops user info and query parameters, where passwords live in URLs. */
    static String redactUrl(String url) {
        String withoutQuery = url.replaceAll("\\?.*$", "?[redacted]");
        return withoutQuery.replaceAll("//[^/@]*@", "//[redacted]@");
    }
}
