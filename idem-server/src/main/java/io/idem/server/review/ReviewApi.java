package io.idem.server.review;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.Attempt;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobState;
import io.idem.core.domain.ReviewAction;
import io.idem.core.domain.Role;
import io.idem.core.engine.Reconciler;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.JobReads;
import io.idem.core.spi.ReviewCase;
import io.idem.core.spi.ReviewStore;
import io.idem.core.spi.StoredAsset;
import io.idem.server.assets.AssetLinks;
import io.idem.server.http.ApiError;
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Feature;
import io.idem.server.http.Json;
import io.idem.server.jobs.JobJson;
import io.idem.server.jobs.JobsApi;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The review queue and operator decisions: reconcile now, retry, fail, confirm_result. */
public final class ReviewApi implements Feature {
    private final Auth auth;
    private final JobReads reads;
    private final ReviewStore review;
    private final Reconciler reconciler;
    private final AssetStore assets;
    private final AssetLinks links;
    private final InstantSource clock;

    public ReviewApi(
            Auth auth,
            JobReads reads,
            ReviewStore review,
            Reconciler reconciler,
            AssetStore assets,
            AssetLinks links,
            InstantSource clock) {
        this.auth = auth;
        this.reads = reads;
        this.review = review;
        this.reconciler = reconciler;
        this.assets = assets;
        this.links = links;
        this.clock = clock;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.get("/v1/review-queue", this::queue);
        config.routes.post("/v1/jobs/{id}/reconcile", this::reconcile);
        config.routes.post("/v1/jobs/{id}/resolve", this::resolve);
    }

    private void queue(Context ctx) {
        auth.require(ctx, Role.OPERATOR, Role.ADMIN);
        var now = clock.instant();
        List<Map<String, Object>> data = new ArrayList<>();
        for (Job job : reads.reviewQueue(200)) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("id", job.id().toString());
            item.put("owner", job.owner());
            item.put("prompt", job.spec().prompt());
            item.put("reason", job.review().map(Job.Review::reason).orElse(null));
            item.put("since", job.review().map(r -> r.since().toString()).orElse(null));
            item.put(
                    "age_seconds",
                    job.review()
                            .map(r -> Duration.between(r.since(), now).toSeconds())
                            .orElse(0L));
            item.put("attempts", job.attempts().stream().map(JobJson::attempt).toList());
            item.put(
                    "provider_request_ids",
                    job.attempts().stream()
                            .map(Attempt::providerRequestId)
                            .flatMap(java.util.Optional::stream)
                            .toList());
            data.add(item);
        }
        Json.write(ctx, Map.of("data", data));
    }

    private Job parked(Context ctx, Caller caller) {
        Job job = reads.find(JobsApi.jobId(ctx), caller.ownerScope()).orElseThrow(() -> ApiError.notFound("job"));
        if (job.state() != JobState.MANUAL_REVIEW) {
            throw new ApiError(409, "job_not_in_review", "job is " + job.state().wire() + ", not manual_review");
        }
        return job;
    }

    private void reconcile(Context ctx) {
        Caller caller = auth.require(ctx, Role.OPERATOR, Role.ADMIN);
        Job job = parked(ctx, caller);
        Reconciler.Verdict verdict = reconciler.reconcileNow(job.id(), caller.actor());
        if (verdict == Reconciler.Verdict.NOT_HELD) {
            throw new ApiError(409, "reconcile_in_progress", "another node is reconciling this job; try again shortly");
        }
        Map<String, Object> body = JobJson.job(reads.find(job.id(), null).orElseThrow(), links, JobsApi.baseUrl(ctx));
        body.put("reconcile", verdict.name().toLowerCase(java.util.Locale.ROOT));
        Json.write(ctx, body);
    }

    private void resolve(Context ctx) {
        Caller caller = auth.require(ctx, Role.OPERATOR, Role.ADMIN);
        JsonNode body = Json.readObject(ctx, 32L * 1024 * 1024);
        ReviewAction action = ReviewAction.fromWire(Json.text(body, "action", null))
                .orElseThrow(
                        () -> ApiError.badRequest("invalid_action", "action must be one of " + ReviewAction.choices()));
        String note = Json.text(body, "note", null);
        if (note == null || note.isBlank() || note.length() > 2000) {
            throw ApiError.badRequest("missing_note", "a note of 1..2000 characters is required for every decision");
        }
        Job job = parked(ctx, caller);
        var now = clock.instant();
        boolean moved = switch (action) {
            case RETRY -> review.resolveRetry(job.id(), caller.actor(), note, now);
            case FAIL -> review.resolveFail(job.id(), caller.actor(), note, now);
            case CONFIRM_RESULT -> confirm(job, body.get("result"), caller, note);
        };
        if (!moved) {
            Job current = reads.find(job.id(), null).orElseThrow();
            throw current.state() == JobState.MANUAL_REVIEW
                    ? new ApiError(409, "reconcile_in_progress", "a reconcile holds this job; try again shortly")
                    : new ApiError(
                            409,
                            "job_not_in_review",
                            "job is " + current.state().wire() + ", not manual_review");
        }
        Json.write(ctx, JobJson.job(reads.find(job.id(), null).orElseThrow(), links, JobsApi.baseUrl(ctx)));
    }

    private boolean confirm(Job job, JsonNode result, Caller caller, String note) {
        Attempt attempt = ReviewCase.pendingAttemptOf(job)
                .orElseThrow(() -> new ApiError(
                        409, "no_pending_attempt", "this job has no attempt whose result could be confirmed"));
        List<StoredAsset> saved = List.of();
        if (result != null && !result.isNull()) {
            saved = save(attempt.id(), media(result));
        }
        return review.resolveConfirm(job.id(), saved, attempt.id(), caller.actor(), note, clock.instant());
    }

    private static List<GenerationResult.Media> media(JsonNode result) {
        JsonNode images = result.get("images");
        if (images == null || !images.isArray() || images.isEmpty()) {
            throw ApiError.badRequest("invalid_result", "result.images must list {b64_json, mime_type}");
        }
        List<GenerationResult.Media> media = new ArrayList<>();
        for (JsonNode image : images) {
            String b64 = Json.text(image, "b64_json", null);
            String mime = Json.text(image, "mime_type", "image/png");
            if (b64 == null) {
                throw ApiError.badRequest("invalid_result", "every result image needs b64_json");
            }
            try {
                media.add(new GenerationResult.Media(Base64.getDecoder().decode(b64), mime));
            } catch (IllegalArgumentException e) {
                throw ApiError.badRequest("invalid_result", "b64_json is not valid base64");
            }
        }
        return media;
    }

    private List<StoredAsset> save(UUID attemptId, List<GenerationResult.Media> media) {
        try {
            return assets.save(attemptId, new GenerationResult(media));
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("refusing")) {
                throw ApiError.badRequest("invalid_result", e.getMessage());
            }
            throw new UncheckedIOException(e);
        }
    }
}
