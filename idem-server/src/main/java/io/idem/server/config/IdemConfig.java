package io.idem.server.config;

import io.idem.core.engine.WorkerSettings;
import io.idem.core.routing.Routing;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Idem's validated, immutable configuration (DESIGN §7). Built once at start by {@link
 * ConfigLoader}; secrets are held as values here but never rendered by {@link #describe()}.
 *
 * @param inProcessFakes providers whose fake vendor runs inside this process (no base_url given)
 * @param publicUrl the address vendors can reach Idem at, for their callbacks (none: no callbacks)
 * @param chat chat models, chat-only providers and lane policies for {@code /v1/chat/completions}
 * @param trustedProxies the peers whose X-Forwarded-For / X-Forwarded-Proto headers are believed
 * @param credentials the value of every variable a provider's {@code api_key_env} names (job and
 *     chat-only providers), as the environment held it at start: adapters read their keys here
 *     and the redactor hides every one of them. Never rendered
 */
public record IdemConfig(
        String host,
        int port,
        Path dataDir,
        Optional<String> databaseUrl,
        Optional<String> secret,
        Optional<String> bootstrapKey,
        NodeRole role,
        Routing routing,
        Set<String> inProcessFakes,
        WorkerSettings worker,
        Duration openaiWait,
        Duration reconcileInterval,
        Duration reconcileMaxAge,
        Duration idempotencyRetention,
        long maxRequestBytes,
        Optional<java.net.URI> publicUrl,
        io.idem.core.breaker.BreakerSettings breaker,
        java.time.Duration healthEvery,
        io.idem.core.chat.ChatRouting chat,
        TrustedProxies trustedProxies,
        Map<String, String> credentials) {

    public IdemConfig {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65535) {
            throw new ConfigException("port must be 0..65535, was " + port);
        }
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(routing, "routing");
        inProcessFakes = Set.copyOf(inProcessFakes);
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(trustedProxies, "trustedProxies");
        credentials = Map.copyOf(credentials);
    }

    /** The configuration as {@link #describe()} renders it: a record's own rendering would print secrets. */
    @Override
    public String toString() {
        return describe();
    }

    /**
     * Every secret value this configuration holds, by where it came from (for a warning that must
     * name a value without showing it): the provider keys, the server secret, the bootstrap key and
     * the database password.
     */
    public Map<String, String> secretValues() {
        Map<String, String> values = new java.util.LinkedHashMap<>(credentials);
        secret.ifPresent(value -> values.put("IDEM_SECRET", value));
        bootstrapKey.ifPresent(value -> values.put("IDEM_BOOTSTRAP_KEY", value));
        databaseUrl.flatMap(IdemConfig::databasePassword).ifPresent(raw -> {
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
        out.append("host=").append(host).append(" port=").append(port);
        out.append(" data_dir=").append(dataDir);
        out.append(" database=").append(databaseUrl.map(IdemConfig::redactUrl).orElse("embedded"));
        out.append(" secret=").append(secret.isPresent() ? "[set]" : "[generated]");
        out.append(" bootstrap_key=").append(bootstrapKey.isPresent() ? "[set]" : "[none]");
        out.append(" role=").append(role.name().toLowerCase(java.util.Locale.ROOT));
        out.append(" worker.concurrency=").append(worker.concurrency());
        out.append(" worker.lease=").append(worker.lease().toSeconds()).append('s');
        out.append(" openai_wait=").append(openaiWait.toSeconds()).append('s');
        out.append(" reconcile_interval=").append(reconcileInterval.toSeconds()).append('s');
        out.append(" reconcile_max_age=").append(reconcileMaxAge.toSeconds()).append('s');
        out.append(" public_url=")
                .append(publicUrl.map(u -> redactUrl(u.toString())).orElse("[none]"));
        out.append(" trusted_proxies=").append(trustedProxies);
        out.append(" idempotency_retention=")
                .append(idempotencyRetention.toHours())
                .append('h');
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
        return out.toString();
    }

    /** Drops user info and query parameters, where passwords live in URLs. */
    static String redactUrl(String url) {
        String withoutQuery = url.replaceAll("\\?.*$", "?[redacted]");
        return withoutQuery.replaceAll("//[^/@]*@", "//[redacted]@");
    }
}
