package io.idem.server.videos;

import io.idem.core.domain.Job;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobResult;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.JobState;
import io.idem.core.engine.JobCanceller;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.JobIntake;
import io.idem.core.spi.JobReads;
import io.idem.server.http.ApiError;
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Feature;
import io.idem.server.http.IdempotencyKey;
import io.idem.server.http.Ids;
import io.idem.server.http.Json;
import io.idem.server.http.QueryParams;
import io.idem.server.http.RetryAdvice;
import io.idem.server.jobs.JobDesk;
import io.idem.server.jobs.JobRequests;
import io.idem.server.jobs.JobsApi;
import io.idem.server.jobs.Submissions;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * OpenAI-shaped {@code /v1/videos} over Idem's video jobs: create (through the job intake, so {@code
 * Idempotency-Key} works as on {@code POST /v1/jobs}), read, list the key's own, fetch the clip
 * (streamed from the asset store, with {@code Range}), and {@code DELETE} to cancel through the
 * vendor where it can. Thread-safe.
 */
public final class VideosApi implements Feature {
    private final Auth auth;
    private final JobRequests requests;
    private final Submissions submissions;
    private final JobReads reads;
    private final AssetStore assets;
    private final JobCanceller canceller;
    private final long maxBytes;

    public VideosApi(Auth auth, JobDesk desk, AssetStore assets, JobCanceller canceller, long maxBytes) {
        this.auth = auth;
        this.requests = desk.requests();
        this.submissions = desk.submissions();
        this.reads = desk.reads();
        this.assets = assets;
        this.canceller = canceller;
        this.maxBytes = maxBytes;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.post("/v1/videos", this::create);
        config.routes.get("/v1/videos", this::list);
        config.routes.get("/v1/videos/{id}", this::get);
        config.routes.get("/v1/videos/{id}/content", this::content);
        config.routes.delete("/v1/videos/{id}", this::delete);
    }

    private void create(Context ctx) {
        Caller caller = auth.require(ctx);
        IdempotencyKey.from(ctx); // a malformed key is refused before the body is read
        var body = OpenAiVideoRequests.toJob(Json.readObject(ctx, maxBytes));
        JobSpec spec = requests.parse(body, Set.of(), JobsApi.asker(caller));
        JobIntake.Accepted accepted = submissions.submit(ctx, caller, spec);
        RetryAdvice.NEVER.apply(ctx);
        switch (accepted) {
            case JobIntake.Accepted.Created created -> {
                ctx.header("Location", "/v1/videos/" + created.jobId());
                Json.write(ctx, VideoJson.video(load(created.jobId(), caller)));
            }
            case JobIntake.Accepted.Replayed replayed -> {
                ctx.header("Idempotent-Replayed", "true");
                Json.write(ctx, VideoJson.video(load(replayed.jobId(), caller)));
            }
            case JobIntake.Accepted.KeyReused reused ->
                throw new ApiError(
                        409, "idempotency_key_reused", "this Idempotency-Key was used with a different request");
        }
    }

    private void get(Context ctx) {
        Caller caller = auth.require(ctx);
        Json.write(ctx, VideoJson.video(load(videoId(ctx), caller)));
    }

    /** The clip, streamed from the asset store; a {@code Range} request is answered {@code 206}. */
    private void content(Context ctx) {
        Caller caller = auth.require(ctx);
        String variant = ctx.queryParam("variant");
        if (variant != null && !variant.equals("video")) {
            throw ApiError.badRequest("invalid_variant", "only variant=video is offered, was '" + variant + "'");
        }
        Job job = load(videoId(ctx), caller);
        if (job.state() != JobState.SUCCEEDED || job.result().isEmpty()) {
            throw new ApiError(
                    409,
                    "video_not_ready",
                    "the video is " + VideoJson.status(job.state()) + " ("
                            + job.state().wire() + "), not completed",
                    Map.of("state", job.state().wire()));
        }
        JobResult.AssetRef clip = job.result().get().assets().getFirst();
        JobReads.AssetFile file = reads.asset(clip.id()).orElseThrow(() -> ApiError.notFound("video content"));
        ctx.header("Cache-Control", "private, max-age=86400, immutable").header("X-Content-Type-Options", "nosniff");
        try {
            io.idem.server.assets.ByteRange.serve(ctx, assets.open(file.location()), file.mimeType(), clip.bytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Newest first, the calling key's own videos only; {@code after} is the last id of the page before. */
    private void list(Context ctx) {
        Caller caller = auth.require(ctx);
        int limit = QueryParams.limit(ctx.queryParam("limit"));
        String after = ctx.queryParam("after");
        JobReads.Cursor cursor = after == null || after.isEmpty()
                ? null
                : Ids.uuid(after)
                        .flatMap(id -> reads.find(id, caller.owner()))
                        .map(job -> new JobReads.Cursor(job.createdAt(), job.id()))
                        .orElseThrow(() -> ApiError.badRequest("invalid_after", "after names no video of yours"));
        JobReads.Page page = reads.list(caller.owner(), null, JobKind.VIDEO, cursor, limit);
        List<Map<String, Object>> data =
                page.jobs().stream().map(VideoJson::video).toList();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "list");
        body.put("data", data);
        body.put("first_id", data.isEmpty() ? null : data.getFirst().get("id"));
        body.put("last_id", data.isEmpty() ? null : data.getLast().get("id"));
        body.put("has_more", page.next().isPresent());
        Json.write(ctx, body);
    }

    /** Cancels the video (at the vendor where it can); a video that already ended cannot be. */
    private void delete(Context ctx) {
        Caller caller = auth.require(ctx);
        Job job = load(videoId(ctx), caller);
        JobCanceller.Result result = canceller.cancel(job, caller.actor());
        Job now = load(job.id(), caller);
        if (result == JobCanceller.Result.TOO_LATE) {
            throw new ApiError(
                    409,
                    "video_not_cancelable",
                    "the video is " + now.state().wire() + " and can no longer be canceled",
                    Map.of("state", now.state().wire()));
        }
        Map<String, Object> body = VideoJson.video(now);
        body.put("deleted", now.state() == JobState.CANCELED);
        Json.write(ctx, body);
    }

    private static UUID videoId(Context ctx) {
        return Ids.pathId(ctx, "video");
    }

    /** The caller's video job; an image job is not a video, so it is not found here. */
    private Job load(UUID id, Caller caller) {
        return reads.find(id, caller.ownerScope())
                .filter(job -> job.spec().kind() == JobKind.VIDEO)
                .orElseThrow(() -> ApiError.notFound("video"));
    }
}
