package io.idem.server.jobs;

import io.idem.core.domain.Job;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.JobState;
import io.idem.core.spi.JobIntake;
import io.idem.core.spi.JobReads;
import io.idem.server.assets.AssetLinks;
import io.idem.server.http.ApiError;
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Feature;
import io.idem.server.http.IdempotencyKey;
import io.idem.server.http.Ids;
import io.idem.server.http.Json;
import io.idem.server.http.Paging;
import io.idem.server.http.RetryAdvice;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** {@code /v1/jobs}: create or replay, read, list, trace. */
public final class JobsApi implements Feature {
    private final Auth auth;
    private final JobRequests requests;
    private final Submissions submissions;
    private final JobReads reads;
    private final AssetLinks links;
    private final long maxBytes;

    public JobsApi(Auth auth, JobDesk desk, long maxBytes) {
        this.auth = auth;
        this.requests = desk.requests();
        this.submissions = desk.submissions();
        this.reads = desk.reads();
        this.links = desk.links();
        this.maxBytes = maxBytes;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.post("/v1/jobs", this::create);
        config.routes.get("/v1/jobs", this::list);
        config.routes.get("/v1/jobs/{id}", this::get);
        config.routes.get("/v1/jobs/{id}/events", this::events);
    }

    private void create(Context ctx) {
        Caller caller = auth.require(ctx);
        IdempotencyKey.from(ctx); // a malformed key is refused before the body is read
        JobSpec spec = requests.parse(Json.readObject(ctx, maxBytes), Set.of(), JobsApi.asker(caller));
        JobIntake.Accepted accepted = submissions.submit(ctx, caller, spec);
        // Every job answer is about a job that exists: a retry could only make a second, paid one.
        RetryAdvice.NEVER.apply(ctx);
        switch (accepted) {
            case JobIntake.Accepted.Created created -> {
                ctx.status(202).header("Location", "/v1/jobs/" + created.jobId());
                // Everything about a new job is known here: no read-back on the hot path.
                Job queued = new Job(
                        created.jobId(),
                        caller.owner(),
                        io.idem.core.domain.JobState.QUEUED,
                        spec,
                        1,
                        java.util.Optional.empty(),
                        java.util.Optional.empty(),
                        java.util.Optional.empty(),
                        new Job.Times(created.createdAt(), created.createdAt()),
                        java.util.List.of());
                Json.write(ctx, render(ctx, queued));
            }
            case JobIntake.Accepted.Replayed replayed -> {
                ctx.status(200).header("Idempotent-Replayed", "true");
                Json.write(ctx, render(ctx, load(replayed.jobId(), caller)));
            }
            case JobIntake.Accepted.KeyReused reused ->
                throw new ApiError(
                        409, "idempotency_key_reused", "this Idempotency-Key was used with a different request");
        }
    }

    private Job load(UUID id, Caller caller) {
        return reads.find(id, caller.ownerScope()).orElseThrow(() -> ApiError.notFound("job"));
    }

    Map<String, Object> render(Context ctx, Job job) {
        return JobJson.job(job, links, baseUrl(ctx));
    }

    public static JobRequests.Asker asker(Caller caller) {
        return new JobRequests.Asker(caller.key().jurisdiction(), caller.key().adultApproved());
    }

    public static String baseUrl(Context ctx) {
        return ctx.scheme() + "://" + ctx.host();
    }

    public static UUID jobId(Context ctx) {
        return Ids.pathId(ctx, "job");
    }

    private void get(Context ctx) {
        Caller caller = auth.require(ctx);
        Json.write(ctx, render(ctx, load(jobId(ctx), caller)));
    }

    private void events(Context ctx) {
        Caller caller = auth.require(ctx);
        Job job = load(jobId(ctx), caller);
        Json.write(
                ctx,
                Map.of(
                        "data",
                        reads.events(job.id()).stream().map(JobJson::event).toList()));
    }

    private void list(Context ctx) {
        Caller caller = auth.require(ctx);
        JobState state = null;
        String stateParam = ctx.queryParam("state");
        if (stateParam != null && !stateParam.isEmpty()) {
            try {
                state = JobState.fromWire(stateParam);
            } catch (IllegalArgumentException e) {
                throw ApiError.badRequest("invalid_state", "unknown state '" + stateParam + "'");
            }
        }
        int limit = Paging.limit(ctx, 50);
        JobReads.Cursor after =
                Paging.cursor(ctx).map(p -> new JobReads.Cursor(p.at(), p.id())).orElse(null);
        JobReads.Page page = reads.list(caller.ownerScope(), state, after, limit);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("data", page.jobs().stream().map(j -> render(ctx, j)).toList());
        body.put(
                "next_cursor",
                page.next().map(c -> Paging.encode(c.createdAt(), c.id())).orElse(null));
        Json.write(ctx, body);
    }
}
