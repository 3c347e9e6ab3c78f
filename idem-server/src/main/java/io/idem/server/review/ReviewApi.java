package io.idem.server.review;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.Attempt;
import io.idem.core.domain.Job;
import io.idem.core.domain.ReviewAction;
import io.idem.core.domain.Role;
import io.idem.core.outcome.GenerationResult;
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
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The review queue and operator decisions over {@link ReviewDesk}: reconcile now, retry, fail, confirm_result. */
public final class ReviewApi implements Feature {
    private final Auth auth;
    private final ReviewDesk desk;
    private final AssetLinks links;
    private final InstantSource clock;

    public ReviewApi(Auth auth, ReviewDesk desk, AssetLinks links, InstantSource clock) {
        this.auth = auth;
        this.desk = desk;
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
        for (Job job : desk.queue(200)) {
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

    private void reconcile(Context ctx) {
        Caller caller = auth.require(ctx, Role.OPERATOR, Role.ADMIN);
        ReviewDesk.Reconciled reconciled = desk.reconcile(JobsApi.jobId(ctx), caller.ownerScope(), caller.actor());
        Map<String, Object> body = JobJson.job(reconciled.job(), links, JobsApi.baseUrl(ctx));
        body.put("reconcile", reconciled.verdict().name().toLowerCase(java.util.Locale.ROOT));
        Json.write(ctx, body);
    }

    private void resolve(Context ctx) {
        Caller caller = auth.require(ctx, Role.OPERATOR, Role.ADMIN);
        JsonNode body = Json.readObject(ctx, 32L * 1024 * 1024);
        ReviewAction action = ReviewAction.fromWire(Json.text(body, "action", null))
                .orElseThrow(
                        () -> ApiError.badRequest("invalid_action", "action must be one of " + ReviewAction.choices()));
        String note = Json.text(body, "note", null);
        JsonNode result = body.get("result");
        Optional<List<GenerationResult.Media>> media =
                action == ReviewAction.CONFIRM_RESULT && result != null && !result.isNull()
                        ? Optional.of(media(result))
                        : Optional.empty();
        Job job = desk.resolve(JobsApi.jobId(ctx), caller.ownerScope(), action, note, media, caller.actor());
        Json.write(ctx, JobJson.job(job, links, JobsApi.baseUrl(ctx)));
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
}
