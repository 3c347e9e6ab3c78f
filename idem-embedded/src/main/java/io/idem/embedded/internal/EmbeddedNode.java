package io.idem.embedded.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.chat.ChainResult;
import io.idem.core.domain.ReviewAction;
import io.idem.core.spi.JobIntake;
import io.idem.embedded.ChatAnswer;
import io.idem.embedded.ChatFailedException;
import io.idem.embedded.ChatRequest;
import io.idem.embedded.Decision;
import io.idem.embedded.Idem;
import io.idem.embedded.IdempotencyKeyReusedException;
import io.idem.embedded.Job;
import io.idem.embedded.JobRequest;
import io.idem.embedded.NoSuchJobException;
import io.idem.server.IdemServer;
import io.idem.server.http.ApiError;
import io.idem.server.http.Json;
import io.idem.server.jobs.JobRequests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * {@link Idem} over one embedded {@link IdemServer} node: requests become the same bodies the HTTP
 * API reads, so they are validated, hashed and run exactly as there. Thread-safe.
 */
public final class EmbeddedNode implements Idem {
    private final IdemServer node;
    private final String owner;
    private final FinishWatch watch;

    private EmbeddedNode(IdemServer node, String owner) {
        this.node = node;
        this.owner = owner;
        this.watch = new FinishWatch(this::find);
    }

    /**
     * What {@link Idem.Builder} collected; the optional parts override the {@code environment}'s
     * {@code PROVIDERS_JSON}, {@code IDEM_SECRET}, {@code IDEM_DATA_DIR} and worker count.
     * Immutable once built (the environment is the builder's copy).
     */
    public record Settings(
            javax.sql.DataSource dataSource,
            java.util.Map<String, String> environment,
            Optional<String> providersJson,
            Optional<java.nio.file.Path> configFile,
            Optional<String> secret,
            Optional<java.nio.file.Path> dataDirectory,
            String owner,
            java.time.Clock clock,
            Optional<Integer> workers) {

        /** The node's configuration, read as {@code idem serve} reads its file and environment. */
        io.idem.server.config.IdemConfig config() {
            java.util.Map<String, String> env = new java.util.HashMap<>(environment);
            // The pool is the caller's; a URL in the environment is another node's business.
            env.remove("IDEM_DATABASE_URL");
            providersJson.ifPresent(json -> env.put("PROVIDERS_JSON", json));
            secret.ifPresent(value -> env.put("IDEM_SECRET", value));
            dataDirectory.ifPresent(dir -> env.put("IDEM_DATA_DIR", dir.toString()));
            env.put("IDEM_ROLE", workers.orElse(1) == 0 ? "api" : "all");
            workers.filter(n -> n > 0).ifPresent(n -> env.put("IDEM_WORKER_CONCURRENCY", Integer.toString(n)));
            return new io.idem.server.config.ConfigLoader(env).load(configFile);
        }
    }

    /** Starts a node with {@code settings}; see {@link Idem.Builder#build()}. */
    public static Idem start(Settings settings) {
        return new EmbeddedNode(
                IdemServer.embed(settings.config(), new IdemServer.Embedding(settings.dataSource(), settings.clock())),
                settings.owner());
    }

    @Override
    public Job submit(JobRequest request, String idempotencyKey) {
        JobIntake.Accepted accepted;
        try {
            JsonNode body = Json.MAPPER.valueToTree(request.fields());
            var spec = node.desk().requests().parse(body, Set.of(), JobRequests.Asker.ANYONE);
            accepted = node.desk().submissions().submitAs(owner, spec, idempotencyKey);
        } catch (ApiError e) {
            throw Refusals.of(e, null);
        } catch (IllegalArgumentException e) {
            throw new io.idem.embedded.InvalidRequestException("invalid_request", e.getMessage());
        }
        return switch (accepted) {
            case JobIntake.Accepted.Created created -> read(created.jobId());
            case JobIntake.Accepted.Replayed replayed -> read(replayed.jobId());
            case JobIntake.Accepted.KeyReused reused -> throw new IdempotencyKeyReusedException(reused.jobId());
        };
    }

    private Job read(UUID id) {
        return find(id).orElseThrow(() -> new NoSuchJobException(id));
    }

    @Override
    public Optional<Job> find(UUID id) {
        return node.desk().reads().find(id, owner).map(Views::job);
    }

    @Override
    public Job await(UUID id, Duration timeout) throws InterruptedException {
        Job now = read(id);
        if (now.state().isFinished()) {
            return now;
        }
        CompletableFuture<Job> finished = new CompletableFuture<>();
        Consumer<Job> callback = finished::complete;
        watch.watch(id, callback);
        try {
            return finished.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            watch.forget(id, callback);
            return read(id);
        } catch (ExecutionException e) {
            throw new IllegalStateException("waiting for job " + id + " failed", e.getCause());
        }
    }

    @Override
    public void onFinished(UUID id, Consumer<Job> callback) {
        read(id);
        watch.watch(id, callback);
    }

    @Override
    public byte[] asset(UUID assetId) {
        var file = node.desk()
                .reads()
                .asset(assetId)
                .filter(f -> f.owner().equals(owner))
                .orElseThrow(() ->
                        new io.idem.embedded.InvalidRequestException("asset_not_found", "no such asset: " + assetId));
        try {
            return node.assets().read(file.location());
        } catch (IOException e) {
            throw new UncheckedIOException("could not read asset " + assetId, e);
        }
    }

    @Override
    public ChatAnswer chat(ChatRequest request) {
        ChainResult result;
        try {
            result = node.chat().api().call(Bodies.chat(request), owner);
        } catch (ApiError e) {
            throw Refusals.of(e, null);
        }
        return switch (result) {
            case ChainResult.Served served ->
                new ChatAnswer(
                        served.completion().text(),
                        served.model().name(),
                        served.completion().finishReason(),
                        served.completion().degradationNotice(),
                        Views.attempts(served.attempts()));
            case ChainResult.Failed failed ->
                throw new ChatFailedException(
                        failed.failure().code(), failed.failure().message(), Views.attempts(failed.attempts()));
        };
    }

    @Override
    public List<Job> reviewQueue() {
        return node.review().queue(200).stream()
                .filter(job -> job.owner().equals(owner))
                .map(Views::job)
                .toList();
    }

    @Override
    public Job reconcile(UUID id) {
        try {
            return Views.job(node.review().reconcile(id, owner, actor()).job());
        } catch (ApiError e) {
            throw Refusals.of(e, id);
        }
    }

    @Override
    public Job resolve(UUID id, Decision decision, String note) {
        ReviewAction action = switch (decision) {
            case RETRY -> ReviewAction.RETRY;
            case FAIL -> ReviewAction.FAIL;
            case CONFIRM_RESULT -> ReviewAction.CONFIRM_RESULT;
        };
        try {
            return Views.job(node.review().resolve(id, owner, action, note, Optional.empty(), actor()));
        } catch (ApiError e) {
            throw Refusals.of(e, id);
        }
    }

    /** Who the audit names for this node's decisions. */
    private String actor() {
        return "owner:" + owner;
    }

    @Override
    public void close() {
        watch.close();
        node.close();
    }
}
