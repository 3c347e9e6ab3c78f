package io.idem.server.videos;

import io.idem.core.domain.Job;
import io.idem.core.domain.JobState;
import io.idem.core.domain.VideoParams;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A video job in the shape of OpenAI's video object: {@code status} is one of {@code queued},
 * {@code in_progress}, {@code completed}, {@code failed}, and Idem's own state stands beside it under
 * {@code idem} (a parked job is {@code in_progress} to an OpenAI client and {@code manual_review} to
 * Idem).
 */
final class VideoJson {
    private VideoJson() {}

    static Map<String, Object> video(Job job) {
        VideoParams video = job.spec().video().orElseThrow();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", job.id().toString());
        out.put("object", "video");
        out.put("model", job.spec().model());
        out.put("status", status(job.state()));
        out.put("progress", job.state() == JobState.SUCCEEDED ? 100 : 0);
        out.put("created_at", job.createdAt().getEpochSecond());
        out.put("completed_at", job.state().isTerminal() ? job.updatedAt().getEpochSecond() : null);
        out.put("expires_at", null);
        out.put("prompt", job.spec().prompt());
        out.put("seconds", Integer.toString(video.durationSeconds()));
        out.put("size", job.spec().size());
        out.put(
                "error",
                job.error()
                        .map(e -> Map.of("code", e.code(), "message", e.message()))
                        .orElse(null));
        out.put("idem", idem(job));
        return out;
    }

    private static Map<String, Object> error(Job.JobError e) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", e.code());
        error.put("message", e.message());
        return error;
    }

    private static Map<String, Object> idem(Job job) {
        Map<String, Object> idem = new LinkedHashMap<>();
        idem.put("state", job.state().wire());
        idem.put("job_url", "/v1/jobs/" + job.id());
        idem.put("provider", job.result().map(r -> r.provider()).orElse(null));
        idem.put("review_reason", job.review().map(Job.Review::reason).orElse(null));
        idem.put("provider_calls", job.providerCalls());
        idem.put("spent_usd", job.spentUsd().stripTrailingZeros().toPlainString());
        return idem;
    }

    /** OpenAI's four statuses; a cancel is a {@code failed} video whose error says {@code canceled}. */
    static String status(JobState state) {
        return switch (state) {
            case QUEUED -> "queued";
            case RUNNING, MANUAL_REVIEW -> "in_progress";
            case SUCCEEDED -> "completed";
            case FAILED, CANCELED -> "failed";
        };
    }
}
