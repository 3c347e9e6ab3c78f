package io.idem.server.images;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobResult;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.JobState;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.JobIntake;
import io.idem.core.spi.JobReads;
import io.idem.server.assets.AssetLinks;
import io.idem.server.http.ApiError;
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Feature;
import io.idem.server.http.IdempotencyKey;
import io.idem.server.http.Json;
import io.idem.server.http.RetryAdvice;
import io.idem.server.jobs.JobDesk;
import io.idem.server.jobs.JobRequests;
import io.idem.server.jobs.JobsApi;
import io.idem.server.jobs.Submissions;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * OpenAI-compatible {@code POST /v1/images/generations} and {@code POST /v1/images/edits}: the
 * request and answer shapes of OpenAI's Images API over an Idem job (an edit's uploads: {@link
 * ImageEdits}). Waits up to {@code OPENAI_WAIT_SECONDS} for the job to end; past
 * that answers {@code 202} with the job id instead of holding the client or guessing.
 */
public final class OpenAiImagesApi implements Feature {
    /** OpenAI's fields Idem takes and does not forward (the image parameters are job fields). */
    private static final Set<String> OPENAI_FIELDS = Set.of("response_format", "user");

    private final Auth auth;
    private final JobRequests requests;
    private final Submissions submissions;
    private final JobReads reads;
    private final AssetStore assets;
    private final AssetLinks links;
    private final Duration wait;
    private final long maxBytes;

    /** {@code wait}: how long a request waits for its job to end before it answers 202. */
    public OpenAiImagesApi(Auth auth, JobDesk desk, AssetStore assets, Duration wait, long maxBytes) {
        this.auth = auth;
        this.requests = desk.requests();
        this.submissions = desk.submissions();
        this.reads = desk.reads();
        this.assets = assets;
        this.links = desk.links();
        this.wait = wait;
        this.maxBytes = maxBytes;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.post("/v1/images/generations", this::generate);
        config.routes.post("/v1/images/edits", this::edit);
    }

    private void generate(Context ctx) {
        Caller caller = auth.require(ctx);
        IdempotencyKey.from(ctx); // a malformed key is refused before the body is read
        JsonNode body = Json.readObject(ctx, maxBytes);
        answer(ctx, caller, body, List.of());
    }

    /** An edit: the same job, answer and wait as a generation, starting from the uploaded images. */
    private void edit(Context ctx) {
        Caller caller = auth.require(ctx);
        IdempotencyKey.from(ctx);
        ImageEdits.Edit edit = ImageEdits.read(ctx, maxBytes);
        if (edit.body().has("kind")) {
            throw ApiError.badRequest("invalid_kind", "an edit makes images; it takes no kind");
        }
        answer(ctx, caller, edit.body(), edit.inputs());
    }

    private void answer(Context ctx, Caller caller, JsonNode body, List<io.idem.core.domain.InputImage> inputs) {
        String format = Json.text(body, "response_format", "url");
        if (!format.equals("url") && !format.equals("b64_json")) {
            throw ApiError.badRequest("invalid_response_format", "response_format must be url or b64_json");
        }
        JobSpec spec = requests.parse(body, OPENAI_FIELDS, JobsApi.asker(caller), inputs);
        JobIntake.Accepted accepted = submissions.submit(ctx, caller, spec);
        if (accepted instanceof JobIntake.Accepted.KeyReused) {
            throw new ApiError(409, "idempotency_key_reused", "this Idempotency-Key was used with a different request");
        }
        if (accepted instanceof JobIntake.Accepted.Replayed) {
            ctx.header("Idempotent-Replayed", "true");
        }
        Job job = awaitEnd(accepted.jobId(), caller);
        ctx.header("Idem-Job-Id", job.id().toString());
        // A job exists from here on: its answer, pending or failed, must not be retried into a second one.
        RetryAdvice.NEVER.apply(ctx);
        switch (job.state()) {
            case SUCCEEDED -> Json.write(ctx, success(ctx, job, format));
            case FAILED -> throw failure(job);
            case CANCELED ->
                throw new ApiError(409, "job_canceled", "the job was canceled", Map.of("job_id", job.id()));
            case QUEUED, RUNNING, MANUAL_REVIEW -> {
                Map<String, Object> pending = new LinkedHashMap<>();
                pending.put("job_id", job.id().toString());
                pending.put("state", job.state().wire());
                pending.put("status_url", "/v1/jobs/" + job.id());
                job.review().ifPresent(r -> pending.put("review_reason", r.reason()));
                ctx.status(202);
                Json.write(ctx, pending);
            }
        }
    }

    private Job awaitEnd(UUID id, Caller caller) {
        long deadline = System.nanoTime() + wait.toNanos();
        long pause = 5;
        while (true) {
            Job job = reads.find(id, caller.ownerScope()).orElseThrow(() -> ApiError.notFound("job"));
            boolean settled = job.state().isTerminal() || job.state() == JobState.MANUAL_REVIEW;
            if (settled || System.nanoTime() - deadline > 0) {
                return job;
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return job;
            }
            pause = Math.min(pause * 2, 200);
        }
    }

    private Map<String, Object> success(Context ctx, Job job, String format) {
        JobResult result = job.result().orElseThrow();
        List<Map<String, Object>> data = new ArrayList<>();
        for (JobResult.AssetRef asset : result.assets()) {
            if (format.equals("b64_json")) {
                data.add(Map.of("b64_json", Base64.getEncoder().encodeToString(bytes(asset.id()))));
            } else {
                data.add(Map.of("url", JobsApi.baseUrl(ctx) + links.path(asset.id())));
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("created", job.updatedAt().getEpochSecond());
        out.put("data", data);
        out.put(
                "idem",
                Map.of(
                        "job_id",
                        job.id().toString(),
                        "provider",
                        result.provider(),
                        "provider_calls",
                        job.providerCalls()));
        return out;
    }

    private byte[] bytes(UUID assetId) {
        var file = reads.asset(assetId).orElseThrow(() -> ApiError.notFound("asset"));
        try {
            return assets.read(file.location());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ApiError failure(Job job) {
        Job.JobError error = job.error().orElseThrow();
        int status = switch (error.errorClass() == null ? "" : error.errorClass()) {
            case "user_error", "policy" -> 400;
            case "config" -> 502;
            case "budget" -> 429;
            default -> 503;
        };
        return new ApiError(
                status,
                error.code(),
                error.message(),
                Map.of(
                        "type",
                        status == 400 ? "invalid_request_error" : "server_error",
                        "job_id",
                        job.id().toString()));
    }
}
