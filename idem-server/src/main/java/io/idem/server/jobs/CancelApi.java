package io.idem.server.jobs;

import io.idem.core.domain.Job;
import io.idem.core.engine.JobCanceller;
import io.idem.core.spi.JobReads;
import io.idem.server.assets.AssetLinks;
import io.idem.server.http.ApiError;
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Feature;
import io.idem.server.http.Json;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.Map;

/** {@code POST /v1/jobs/{id}/cancel}. */
public final class CancelApi implements Feature {
    private final Auth auth;
    private final JobReads reads;
    private final JobCanceller canceller;
    private final AssetLinks links;

    public CancelApi(Auth auth, JobReads reads, JobCanceller canceller, AssetLinks links) {
        this.auth = auth;
        this.reads = reads;
        this.canceller = canceller;
        this.links = links;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.post("/v1/jobs/{id}/cancel", this::cancel);
    }

    private void cancel(Context ctx) {
        Caller caller = auth.require(ctx);
        Job job = reads.find(JobsApi.jobId(ctx), caller.ownerScope()).orElseThrow(() -> ApiError.notFound("job"));
        JobCanceller.Result result = canceller.cancel(job, caller.actor());
        Job now = reads.find(job.id(), null).orElseThrow();
        if (result == JobCanceller.Result.TOO_LATE) {
            throw new ApiError(
                    409,
                    "job_not_cancelable",
                    "job is " + now.state().wire() + " and can no longer be canceled",
                    Map.of("state", now.state().wire()));
        }
        Map<String, Object> body = JobJson.job(now, links, JobsApi.baseUrl(ctx));
        body.put("cancel", result.name().toLowerCase(java.util.Locale.ROOT));
        Json.write(ctx, body);
    }
}
