package io.idem.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.idem.core.breaker.BreakerSettings;
import io.idem.core.engine.DeferralSettings;
import io.idem.core.engine.WorkerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Builds {@link IdemConfig} from {@code idem.yaml} (optional) and the environment, which wins.
 * Every bad value fails with the setting and the value named; nothing is silently clamped.
 */
public final class ConfigLoader {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The demo's breaker threshold (and the highest one may set): no visitor clicks "HTTP 503" a
     * million times in a row, so the failures the Generate page asks for never open a breaker.
     */
    static final int DEMO_FAILURE_THRESHOLD = 1_000_000;

    /** Top-level keys whose contents other readers check field by field. */
    private static final Set<String> SECTIONS =
            Set.of("providers", "lanes", "default_lane", "alerts", "trusted_proxies", "moderation");

    private final Map<String, String> env;
    private java.util.List<Setting> effective = java.util.List.of();

    public ConfigLoader(Map<String, String> env) {
        this.env = env;
    }

    /**
     * One setting as the last {@link #load} resolved it: its value ({@code [set]} for a secret), and
     * where it came from ({@code idem.yaml}, an environment variable's name, or {@code default}).
     */
    public record Setting(String path, String envName, String value, String source) {}

    /** Every setting the last {@link #load} read, in reading order; empty before one. */
    public java.util.List<Setting> effective() {
        return effective;
    }

    public IdemConfig load(Optional<Path> file) {
        ObjectNode root = file.map(ConfigLoader::readYaml).orElseGet(JsonNodeFactory.instance::objectNode);
        Settings s = new Settings(root, env);
        IdemConfig config = load(root, s);
        s.refuseUnknown(SECTIONS);
        effective = s.resolved();
        return config;
    }

    private IdemConfig load(ObjectNode root, Settings s) {
        JsonNode routingNode = root;
        String providersJson = env.get("PROVIDERS_JSON");
        if (providersJson != null && !providersJson.isBlank()) {
            try {
                routingNode = JSON.readTree(providersJson);
            } catch (IOException e) {
                throw new ConfigException("PROVIDERS_JSON is not valid JSON: " + e.getMessage());
            }
        }
        Duration expectContinueWait =
                Duration.ofMillis(s.intValue("http.expect_continue_timeout_ms", null, 1000, 1, 60_000));
        RoutingReader.Result routing = new RoutingReader(env, expectContinueWait).read(routingNode);
        ModerationSettings moderation = ModerationSettings.read(
                jsonSection(root, "moderation", "MODERATION_JSON"),
                routing.routing().lanes().keySet());
        int lease = s.intValue("worker.lease_seconds", null, 30, 3, 3600);
        WorkerSettings worker = new WorkerSettings(
                s.text(
                        "worker.id",
                        "IDEM_WORKER_ID",
                        "node-" + UUID.randomUUID().toString().substring(0, 8)),
                s.intValue("worker.concurrency", "IDEM_WORKER_CONCURRENCY", 64, 1, 10_000),
                s.intValue("worker.claim_batch", null, 32, 1, 1000),
                Duration.ofSeconds(lease),
                Duration.ofMillis(s.intValue("worker.poll_millis", null, 2000, 10, 60_000)),
                Duration.ofSeconds(s.intValue("worker.shutdown_grace_seconds", null, 10, 0, 3600)));
        return new IdemConfig(
                role(s.text("role", "IDEM_ROLE", "all")),
                http(root, s),
                new IdemConfig.Storage(
                        Path.of(s.text("data_dir", "IDEM_DATA_DIR", ".idem")),
                        Optional.ofNullable(s.text("database_url", "IDEM_DATABASE_URL", null))
                                .map(ConfigLoader::jdbc),
                        Duration.ofDays(s.intValue("chat.answer_retention_days", null, 0, 0, 365))),
                new IdemConfig.Secrets(
                        Optional.ofNullable(s.text("secret", "IDEM_SECRET", null)),
                        Optional.ofNullable(s.text("bootstrap_key", "IDEM_BOOTSTRAP_KEY", null)),
                        credentials(routing, moderation),
                        Optional.ofNullable(s.text("metrics_token", "IDEM_METRICS_TOKEN", null))),
                routing.routing(),
                routing.inProcessFakes(),
                engine(s, worker, routing, moderation),
                routing.chat(),
                AlertsReader.read(alertsNode(root)),
                webhooks(s));
    }

    private static IdemConfig.Webhooks webhooks(Settings s) {
        return new IdemConfig.Webhooks(
                s.bool("webhooks.allow_private_urls", "IDEM_WEBHOOKS_ALLOW_PRIVATE_URLS", false),
                Duration.ofSeconds(s.intValue("webhooks.timeout_seconds", "IDEM_WEBHOOKS_TIMEOUT_SECONDS", 10, 1, 60)),
                Duration.ofSeconds(
                        s.intValue("webhooks.first_retry_seconds", "IDEM_WEBHOOKS_FIRST_RETRY_SECONDS", 5, 1, 3600)),
                Duration.ofHours(s.intValue("webhooks.give_up_hours", "IDEM_WEBHOOKS_GIVE_UP_HOURS", 24, 1, 168)),
                Duration.ofMillis(s.intValue("webhooks.poll_millis", "IDEM_WEBHOOKS_POLL_MILLIS", 1000, 100, 60_000)),
                Duration.ofDays(s.intValue("webhooks.retention_days", "IDEM_WEBHOOKS_RETENTION_DAYS", 7, 1, 365)));
    }

    /** The {@code alerts:} block, or {@code ALERTS_JSON} when set (it wins, as the environment does). */
    private JsonNode alertsNode(ObjectNode root) {
        return jsonSection(root, "alerts", "ALERTS_JSON");
    }

    /** A block of the file, or the JSON in {@code variable} when set (it wins, as the environment does). */
    private JsonNode jsonSection(ObjectNode root, String section, String variable) {
        String json = env.get(variable);
        if (json == null || json.isBlank()) {
            return root.get(section);
        }
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new ConfigException(variable + " is not valid JSON");
        }
    }

    private IdemConfig.Http http(ObjectNode root, Settings s) {
        return new IdemConfig.Http(
                s.text("host", "IDEM_HOST", "127.0.0.1"),
                s.intValue("port", "IDEM_PORT", 8080, 0, 65535),
                s.intValue("max_request_bytes", null, 1_048_576, 1024, 64 * 1_048_576),
                Duration.ofSeconds(s.intValue("openai_wait_seconds", "OPENAI_WAIT_SECONDS", 10, 0, 600)),
                Optional.ofNullable(s.text("public_url", "IDEM_PUBLIC_URL", null))
                        .map(ConfigLoader::publicUrl),
                trustedProxies(root, s),
                s.text("metrics_port", "IDEM_METRICS_PORT", null) == null
                        ? Optional.empty()
                        : Optional.of(s.intValue("metrics_port", "IDEM_METRICS_PORT", 0, 0, 65535)));
    }

    /**
     * The engine's settings. The demo (no provider configured) differs in two defaults, so that the
     * README's demo behaves as written however often a visitor clicks: its breakers do not open on
     * the failures a visitor asks the fake vendors for, and the reconcile sweep leaves its parked jobs
     * in the review queue for the visitor (docs/console.md). A value set explicitly still wins.
     */
    private static IdemConfig.Engine engine(
            Settings s, WorkerSettings worker, RoutingReader.Result routing, ModerationSettings moderation) {
        return new IdemConfig.Engine(
                worker,
                new io.idem.core.engine.Reconciler.Timing(
                        Duration.ofSeconds(
                                s.intValue("reconcile_interval_seconds", "RECONCILE_INTERVAL_SECONDS", 30, 1, 86_400)),
                        Duration.ofSeconds(s.intValue(
                                "reconcile_max_age_seconds", "RECONCILE_MAX_AGE_SECONDS", 86_400, 60, 31_536_000))),
                Duration.ofHours(
                        s.intValue("idempotency_retention_hours", "IDEM_IDEMPOTENCY_RETENTION_HOURS", 24, 1, 8760)),
                breaker(s, routing.demo() ? DEMO_FAILURE_THRESHOLD : BreakerSettings.DEFAULTS.failureThreshold()),
                Duration.ofSeconds(s.intValue("health_check_seconds", "IDEM_HEALTH_CHECK_SECONDS", 30, 1, 3600)),
                new IdemConfig.SdkRetries(
                        Duration.ofSeconds(s.intValue(
                                "sdk_retry_window_seconds", "IDEM_SDK_RETRY_WINDOW_SECONDS", 600, 1, 86_400)),
                        Duration.ofSeconds(s.intValue(
                                "sdk_retry_max_window_seconds", "IDEM_SDK_RETRY_MAX_WINDOW_SECONDS", 600, 1, 86_400))),
                deferral(s),
                new io.idem.core.invoice.InvoiceSettings(
                        s.intValue("invoice_check.hour_utc", "IDEM_INVOICE_CHECK_HOUR_UTC", 2, 0, 23),
                        s.intValue("invoice_check.tolerance_percent", "IDEM_INVOICE_TOLERANCE_PERCENT", 2, 0, 50)
                                / 100.0),
                routing.demo() ? routing.routing().providers().keySet() : Set.of(),
                moderation);
    }

    /** Job deadlines and deferral; the default must not exceed the maximum. */
    private static DeferralSettings deferral(Settings s) {
        var d = DeferralSettings.DEFAULTS;
        int max = s.intValue(
                "job_deadline.max_seconds",
                "IDEM_MAX_DEADLINE_SECONDS",
                (int) d.maxDeadline().toSeconds(),
                1,
                io.idem.core.domain.JobSpec.MAX_DEADLINE_SECONDS);
        int fallback = s.intValue(
                "job_deadline.default_seconds",
                "IDEM_DEFAULT_DEADLINE_SECONDS",
                (int) Math.min(d.defaultDeadline().toSeconds(), max),
                1,
                io.idem.core.domain.JobSpec.MAX_DEADLINE_SECONDS);
        if (fallback > max) {
            throw new ConfigException("job_deadline.default_seconds (" + fallback
                    + ") must not be longer than job_deadline.max_seconds (" + max + ")");
        }
        int maxTimeout = s.intValue(
                "jobs.max_timeout_seconds",
                "IDEM_MAX_TIMEOUT_SECONDS",
                io.idem.core.domain.JobSpec.DEFAULT_MAX_TIMEOUT_SECONDS,
                1,
                io.idem.core.domain.JobSpec.MAX_TIMEOUT_SECONDS);
        return new DeferralSettings(
                Duration.ofSeconds(fallback),
                Duration.ofSeconds(max),
                s.bool("defer_on_budget_exhausted", "IDEM_DEFER_ON_BUDGET_EXHAUSTED", false),
                Duration.ofSeconds(maxTimeout));
    }

    /** A comma-separated string (either source) or, in the file, a YAML list. */
    private TrustedProxies trustedProxies(ObjectNode root, Settings s) {
        String fromEnv = env.get("IDEM_TRUSTED_PROXIES");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return TrustedProxies.parse("IDEM_TRUSTED_PROXIES", fromEnv);
        }
        JsonNode node = root.get("trusted_proxies");
        if (node != null && node.isArray()) {
            java.util.List<String> entries = new java.util.ArrayList<>();
            node.forEach(e -> entries.add(e.isValueNode() ? e.asText() : e.toString()));
            return TrustedProxies.parse("trusted_proxies", String.join(",", entries));
        }
        return TrustedProxies.parse("trusted_proxies", s.text("trusted_proxies", null, ""));
    }

    /** The value of every key variable a job or chat-only provider names, where the environment sets one. */
    private Map<String, String> credentials(RoutingReader.Result routing, ModerationSettings moderation) {
        Map<String, String> values = new java.util.LinkedHashMap<>();
        java.util.stream.Stream.concat(
                        java.util.stream.Stream.concat(
                                        routing.routing().providers().values().stream(),
                                        routing.chat().chatOnlyProviders().values().stream())
                                .flatMap(p -> java.util.stream.Stream.of(
                                                p.apiKeyEnv(), p.usageKeyEnv(), p.secretKeyEnv())
                                        .flatMap(Optional::stream)),
                        moderation.keyEnv().stream())
                .forEach(variable -> {
                    String value = env.get(variable);
                    if (value != null && !value.isBlank()) {
                        values.put(variable, value);
                    }
                });
        return values;
    }

    private static BreakerSettings breaker(Settings s, int defaultThreshold) {
        var d = BreakerSettings.DEFAULTS;
        int cooldown =
                s.intValue("breaker.cooldown_seconds", null, (int) d.cooldown().toSeconds(), 1, 86_400);
        int maxCooldown = s.intValue(
                "breaker.max_cooldown_seconds", null, (int) d.maxCooldown().toSeconds(), 1, 604_800);
        if (maxCooldown < cooldown) {
            throw new ConfigException("breaker.max_cooldown_seconds (" + maxCooldown
                    + ") must not be shorter than breaker.cooldown_seconds (" + cooldown + ")");
        }
        int failureThreshold = s.intValue(
                "breaker.failure_threshold",
                "IDEM_BREAKER_FAILURE_THRESHOLD",
                defaultThreshold,
                1,
                DEMO_FAILURE_THRESHOLD);
        return new BreakerSettings(
                failureThreshold,
                Duration.ofMillis(s.intValue(
                        "breaker.latency_threshold_ms",
                        null,
                        (int) d.latencyThreshold().toMillis(),
                        1,
                        600_000)),
                Duration.ofSeconds(s.intValue(
                        "breaker.latency_window_seconds",
                        null,
                        (int) d.latencyWindow().toSeconds(),
                        1,
                        86_400)),
                s.intValue("breaker.latency_min_samples", null, d.latencyMinSamples(), 1, 100_000),
                Duration.ofSeconds(cooldown),
                Duration.ofSeconds(maxCooldown),
                d.probeTimeout(),
                s.intValue("breaker.health_failure_threshold", null, failureThreshold, 1, DEMO_FAILURE_THRESHOLD),
                Duration.ofSeconds(s.intValue(
                        "breaker.unusable_for_seconds",
                        null,
                        (int) BreakerSettings.UNUSABLE_FOR.toSeconds(),
                        1,
                        604_800)));
    }

    private static IdemConfig.NodeRole role(String value) {
        return switch (value) {
            case "api" -> IdemConfig.NodeRole.API;
            case "worker" -> IdemConfig.NodeRole.WORKER;
            case "all" -> IdemConfig.NodeRole.ALL;
            default -> throw new ConfigException("role must be api, worker or all, was '" + value + "'");
        };
    }

    private static java.net.URI publicUrl(String value) {
        try {
            java.net.URI uri =
                    java.net.URI.create(value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
            if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                throw new IllegalArgumentException();
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new ConfigException("public_url / IDEM_PUBLIC_URL must be an http(s) URL, was '" + value + "'");
        }
    }

    /** Accepts {@code postgresql://user:pw@host/db} as well as {@code jdbc:postgresql://…}. */
    static String jdbc(String url) {
        if (url.startsWith("jdbc:postgresql://")) {
            return url;
        }
        if (url.startsWith("postgresql://") || url.startsWith("postgres://")) {
            java.net.URI uri = java.net.URI.create(url);
            StringBuilder out = new StringBuilder("jdbc:postgresql://").append(uri.getHost());
            if (uri.getPort() > 0) {
                out.append(':').append(uri.getPort());
            }
            out.append(uri.getPath() == null ? "/" : uri.getPath());
            String query = uri.getQuery() == null ? "" : uri.getQuery();
            if (uri.getUserInfo() != null) {
                String[] parts = uri.getUserInfo().split(":", 2);
                query = (query.isEmpty() ? "" : query + "&") + "user=" + parts[0]
                        + (parts.length > 1 ? "&password=" + parts[1] : "");
            }
            return query.isEmpty() ? out.toString() : out + "?" + query;
        }
        throw new ConfigException("database URL must start with postgresql:// or jdbc:postgresql:// (value redacted)");
    }

    private static ObjectNode readYaml(Path path) {
        try {
            JsonNode node = YAML.readTree(Files.readString(path));
            if (node == null || node.isNull() || node.isMissingNode()) {
                return JsonNodeFactory.instance.objectNode();
            }
            if (!(node instanceof ObjectNode object)) {
                throw new ConfigException("config file " + path + " must hold a mapping at the top");
            }
            return object;
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads dotted settings from the file with an environment variable taking precedence: the one
     * named, or else {@code IDEM_} and the path in capitals with underscores ({@code
     * worker.lease_seconds}: {@code IDEM_WORKER_LEASE_SECONDS}). Remembers what it read, so that a
     * key nobody read can be refused and the effective configuration printed.
     */
    private static final class Settings {
        private static final Set<String> SECRETS = Set.of("secret", "bootstrap_key", "metrics_token");

        private final ObjectNode root;
        private final Map<String, String> env;
        private final Map<String, Setting> read = new java.util.LinkedHashMap<>();

        Settings(ObjectNode root, Map<String, String> env) {
            this.root = root;
            this.env = env;
        }

        java.util.List<Setting> resolved() {
            return java.util.List.copyOf(read.values());
        }

        static String envNameOf(String path, String envName) {
            return envName != null
                    ? envName
                    : "IDEM_" + path.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
        }

        String text(String path, String envName, String fallback) {
            String variable = envNameOf(path, envName);
            String value;
            String source;
            if (env.get(variable) != null && !env.get(variable).isBlank()) {
                value = env.get(variable);
                source = variable;
            } else {
                JsonNode node = at(path);
                if (node != null && !node.isNull() && !node.isValueNode()) {
                    throw new ConfigException(path + " must be a single value, was " + node);
                }
                boolean set = node != null && !node.isNull();
                value = set ? node.asText() : fallback;
                source = set ? "idem.yaml" : "default";
            }
            read.put(path, new Setting(path, variable, shown(path, value), source));
            return value;
        }

        /** How a value may be printed: secrets only as set or not, a database URL without its password. */
        private static String shown(String path, String value) {
            if (value == null) {
                return "[none]";
            }
            if (SECRETS.contains(path)) {
                return "[set]";
            }
            return path.equals("database_url") ? IdemConfig.redactUrl(value) : value;
        }

        /** Fails on the first key of the file that no setting read, naming the nearest known one. */
        void refuseUnknown(Set<String> sections) {
            root.fieldNames().forEachRemaining(key -> {
                if (!sections.contains(key)) {
                    refuseUnknown(key, root.get(key), sections);
                }
            });
        }

        private void refuseUnknown(String path, JsonNode node, Set<String> sections) {
            if (read.containsKey(path)) {
                return;
            }
            if (node.isObject() && read.keySet().stream().anyMatch(known -> known.startsWith(path + "."))) {
                node.fieldNames().forEachRemaining(key -> refuseUnknown(path + "." + key, node.get(key), sections));
                return;
            }
            int depth = path.split("\\.").length;
            Set<String> known = new java.util.TreeSet<>(sections);
            read.keySet()
                    .forEach(name -> known.add(String.join(
                            ".",
                            java.util.Arrays.asList(name.split("\\."))
                                    .subList(0, Math.min(depth, name.split("\\.").length)))));
            throw new ConfigException("unknown setting '" + path + "' in idem.yaml"
                    + Nearest.of(path, known)
                            .map(n -> "; did you mean '" + n + "'?")
                            .orElse(""));
        }

        int intValue(String path, String envName, int fallback, int min, int max) {
            String raw = text(path, envName, null);
            if (raw == null) {
                read.put(path, new Setting(path, envNameOf(path, envName), String.valueOf(fallback), "default"));
                return fallback;
            }
            String variable = envNameOf(path, envName);
            String where = env.get(variable) != null ? variable : path;
            int value;
            try {
                value = Integer.parseInt(raw.trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(where + " must be a whole number, was '" + raw + "'");
            }
            if (value < min || value > max) {
                throw new ConfigException(where + " must be " + min + ".." + max + ", was " + value);
            }
            return value;
        }

        boolean bool(String path, String envName, boolean fallback) {
            String raw = text(path, envName, null);
            if (raw == null) {
                read.put(path, new Setting(path, envNameOf(path, envName), String.valueOf(fallback), "default"));
                return fallback;
            }
            String variable = envNameOf(path, envName);
            String where = env.get(variable) != null ? variable : path;
            return switch (raw.strip()) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new ConfigException(where + " must be true or false, was '" + raw + "'");
            };
        }

        private JsonNode at(String path) {
            JsonNode node = root;
            for (String part : path.split("\\.")) {
                if (node == null) {
                    return null;
                }
                node = node.get(part);
            }
            return node;
        }
    }
}
