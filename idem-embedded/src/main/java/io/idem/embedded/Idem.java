package io.idem.embedded;

import io.idem.embedded.internal.EmbeddedNode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Idem running inside a Java service: the same engine, promises and database as an {@code idem
 * serve} node, reached by method calls instead of HTTP. Jobs are accepted durably before {@link
 * #submit} returns, every provider call is written ahead of the call and fenced by the job's lease,
 * an unknown outcome parks the job for reconcile and review, and chat calls run the same failover
 * chains as {@code POST /v1/chat/completions}. Build one with {@link #builder()}; {@link #close()}
 * stops it (jobs not yet finished stay in the database and are taken up by the next node).
 *
 * <p>Everything this node does runs under one owner ({@link Builder#owner}): it submits and sees
 * only that owner's jobs, as an API key of that owner would.
 *
 * <p>Thread-safe: one instance serves the whole service, from any number of threads.
 */
public interface Idem extends AutoCloseable {

    /**
     * Accepts a job durably and returns it (normally {@link JobState#QUEUED}). With the same {@code
     * idempotencyKey} and the same request, the original job is returned and nothing new is
     * accepted (across restarts and nodes, for as long as keys are kept); {@code null}: not
     * idempotent, every call is a new job.
     *
     * @throws IdempotencyKeyReusedException the key was used before with a different request
     * @throws InvalidRequestException the request is invalid or nothing can serve it (nothing is stored)
     */
    Job submit(JobRequest request, String idempotencyKey);

    /** The job as stored now, if this owner has one with that id. */
    Optional<Job> find(UUID id);

    /**
     * Waits up to {@code timeout} for the job to finish ({@link JobState#isFinished()}) and returns
     * it; after the timeout, returns it as it stands (check its state). A job parked in review is
     * not finished: it finishes when reconcile or an operator decides.
     *
     * @throws NoSuchJobException this owner has no such job
     * @throws InterruptedException the waiting thread was interrupted
     */
    Job await(UUID id, Duration timeout) throws InterruptedException;

    /**
     * Calls {@code callback} once with the finished job, on a thread of Idem's (never the caller's),
     * as soon as the job is seen finished: at once when it already is. The callback must not block for
     * long; what it throws is logged and dropped. Callbacks pending at {@link #close()} never run.
     *
     * @throws NoSuchJobException this owner has no such job
     */
    void onFinished(UUID id, Consumer<Job> callback);

    /** The bytes of a delivered file ({@link Job.Asset#id()}) of this owner's jobs. */
    byte[] asset(UUID assetId);

    /**
     * Makes a chat call through the configured chains, breakers, budgets and audit, and returns the
     * answer. A call is plain (no streaming) and not idempotent.
     *
     * @throws ChatFailedException no model of the chain answered
     * @throws InvalidRequestException the request names unknown models or fields a model cannot honour
     */
    ChatAnswer chat(ChatRequest request);

    /** This owner's jobs parked in review, oldest first (at most 200). */
    List<Job> reviewQueue();

    /**
     * Asks the provider about a parked job now (as the reconcile sweep would) and returns the job
     * after the answer: succeeded when the provider delivered, back in the queue when the call
     * definitively never started, still parked when the provider cannot tell.
     *
     * @throws UnableToResolveException the job is not parked, or another node is reconciling it
     */
    Job reconcile(UUID id);

    /**
     * Decides on a parked job, audited with {@code note} (1..2000 characters) under this owner, and
     * returns the job after the decision.
     *
     * @throws UnableToResolveException the job is not parked, a reconcile holds it, or (confirm) no
     *     attempt has a result to confirm
     * @throws InvalidRequestException the note is missing or too long
     * @throws NoSuchJobException this owner has no such job
     */
    Job resolve(UUID id, Decision decision, String note);

    /** Stops the worker, sweeps and listeners; the caller's DataSource stays open. Idempotent. */
    @Override
    void close();

    /** A builder: {@link Builder#database} is required, everything else has a default. */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Collects how to run Idem; each option may be set once (a second set is refused with the value
     * it would have replaced, so two parts of a program cannot silently disagree). Not thread-safe:
     * build from one thread.
     */
    final class Builder {
        private final Map<String, Object> options = new LinkedHashMap<>();

        private Builder() {}

        private Builder set(String option, Object value) {
            Objects.requireNonNull(value, option);
            Object before = options.putIfAbsent(option, value);
            if (before != null) {
                throw new IllegalStateException(option + " was already set (to " + shown(option, before) + ")");
            }
            return this;
        }

        private static String shown(String option, Object value) {
            return option.equals("secret") || option.equals("environment") ? "[hidden]" : String.valueOf(value);
        }

        /**
         * The PostgreSQL pool Idem keeps its state in (required). Idem applies its Flyway migrations
         * to it at {@link #build()}, takes connections as it needs them (one is held for LISTEN), and
         * never closes it. Its connections must auto-commit, as JDBC's do by default.
         */
        public Builder database(DataSource dataSource) {
            return set("database", dataSource);
        }

        /**
         * Providers, lanes and chat models as JSON, in the shape of {@code PROVIDERS_JSON}: {@code
         * {"providers": {...}, "lanes": {...}}}. Without it (and without a config file naming
         * providers), Idem runs the demo's in-process fake providers.
         */
        public Builder providers(String providersJson) {
            return set("providers", providersJson);
        }

        /** An {@code idem.yaml} with any of the settings {@code idem serve} reads (the HTTP ones are unused). */
        public Builder config(Path idemYaml) {
            return set("config", idemYaml);
        }

        /**
         * Where provider keys and the {@code IDEM_*} / {@code RECONCILE_*} settings are read from, as
         * {@code idem serve} reads its environment (default: {@link System#getenv()}).
         */
        public Builder environment(Map<String, String> environment) {
            return set("environment", Map.copyOf(environment));
        }

        /**
         * The server secret that idempotency keys and signed links are digested under; nodes that
         * share a database must share it. Default: {@code IDEM_SECRET}, else one generated once in
         * the data directory.
         */
        public Builder secret(String secret) {
            return set("secret", secret);
        }

        /** Where delivered files (and a generated secret) are kept (default: {@code IDEM_DATA_DIR}, else {@code .idem}). */
        public Builder dataDirectory(Path directory) {
            return set("dataDirectory", directory);
        }

        /** The owner every job and call of this node belongs to (default {@code embedded}). */
        public Builder owner(String owner) {
            if (owner.isBlank() || owner.length() > 200) {
                throw new IllegalArgumentException("owner must be 1..200 characters, was '" + owner + "'");
            }
            return set("owner", owner);
        }

        /** The clock every rule that depends on time reads (default: the system clock, UTC). */
        public Builder clock(Clock clock) {
            return set("clock", clock);
        }

        /**
         * How many jobs this node runs at once (default 64); 0 runs no worker here: jobs are
         * accepted and wait for a worker on another node (an {@code idem serve} node, say).
         */
        public Builder workers(int workers) {
            if (workers < 0 || workers > 10_000) {
                throw new IllegalArgumentException("workers must be 0..10000, was " + workers);
            }
            return set("workers", workers);
        }

        /**
         * Starts Idem: migrates the database, starts the engine (and a worker unless {@code
         * workers(0)}).
         *
         * @throws IllegalStateException no database was set
         * @throws io.idem.core.IdemException a setting is invalid (the message names it and its value)
         */
        public Idem build() {
            DataSource database = (DataSource) options.get("database");
            if (database == null) {
                throw new IllegalStateException("Idem.builder().database(dataSource) is required");
            }
            @SuppressWarnings("unchecked")
            Map<String, String> environment =
                    (Map<String, String>) options.getOrDefault("environment", System.getenv());
            return EmbeddedNode.start(new EmbeddedNode.Settings(
                    database,
                    environment,
                    Optional.ofNullable((String) options.get("providers")),
                    Optional.ofNullable((Path) options.get("config")),
                    Optional.ofNullable((String) options.get("secret")),
                    Optional.ofNullable((Path) options.get("dataDirectory")),
                    (String) options.getOrDefault("owner", "embedded"),
                    (Clock) options.getOrDefault("clock", Clock.systemUTC()),
                    Optional.ofNullable((Integer) options.get("workers"))));
        }
    }
}
