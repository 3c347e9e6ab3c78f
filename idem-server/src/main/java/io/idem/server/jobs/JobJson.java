package io.idem.server.jobs;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobEvent;
import io.idem.core.domain.JobResult;
import io.idem.server.assets.AssetLinks;
import io.idem.server.http.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The job response of DESIGN §7, as plain maps. */
public final class JobJson {
    private JobJson() {}

    public static Map<String, Object> job(Job job, AssetLinks links, String baseUrl) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", job.id().toString());
        out.put("state", job.state().wire());
        out.put("kind", job.spec().kind().wire());
        out.put("lane", job.spec().lane());
        out.put("model", job.spec().model());
        out.put("prompt", job.spec().prompt());
        out.put("size", job.spec().size());
        out.put("n", job.spec().n());
        job.spec().video().ifPresent(video -> out.put("video", video(video)));
        if (!job.spec().image().isEmpty()) {
            out.put("image", image(job.spec().image()));
        }
        out.put("candidates", job.spec().candidates());
        out.put("created_at", job.createdAt().toString());
        out.put("updated_at", job.updatedAt().toString());
        out.put("deadline_seconds", job.spec().deadlineSeconds());
        out.put("deadline_at", job.deadline().toString());
        out.put("not_before", job.times().notBefore().map(Object::toString).orElse(null));
        out.put("result", job.result().map(r -> result(r, links, baseUrl)).orElse(null));
        out.put(
                "error",
                job.error()
                        .map(e -> {
                            Map<String, Object> error = new LinkedHashMap<>();
                            error.put("code", e.code());
                            error.put("message", e.message());
                            error.put("class", e.errorClass());
                            return error;
                        })
                        .orElse(null));
        out.put(
                "review",
                job.review()
                        .map(r ->
                                Map.of("reason", r.reason(), "since", r.since().toString()))
                        .orElse(null));
        out.put("round", job.round());
        out.put("attempts", job.attempts().stream().map(JobJson::attempt).toList());
        out.put("provider_calls", job.providerCalls());
        out.put(
                "max_cost_usd",
                job.spec()
                        .maxCostUsd()
                        .map(m -> m.stripTrailingZeros().toPlainString())
                        .orElse(null));
        out.put("spent_usd", job.spentUsd().stripTrailingZeros().toPlainString());
        out.put("callback_url", job.spec().callbackUrl().orElse(null));
        return out;
    }

    private static Map<String, Object> result(JobResult r, AssetLinks links, String baseUrl) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("provider", r.provider());
        result.put("attempt_id", r.attemptId().toString());
        List<Map<String, Object>> images = new ArrayList<>();
        r.assets()
                .forEach(a -> images.add(
                        Map.of("url", baseUrl + links.path(a.id()), "mime_type", a.mimeType(), "bytes", a.bytes())));
        result.put("images", images);
        return result;
    }

    /** An image job's own parameters as the request named them ({@code provider_options} as the object it was). */
    static Map<String, Object> image(io.idem.core.domain.ImageParams image) {
        Map<String, Object> out = new LinkedHashMap<>(image.values());
        image.providerOptions().ifPresent(json -> {
            try {
                out.put(
                        io.idem.core.domain.ImageParams.PROVIDER_OPTIONS,
                        io.idem.server.http.Json.MAPPER.readTree(json));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("provider_options were validated at intake", e);
            }
        });
        if (!image.inputs().isEmpty()) {
            out.put(
                    "inputs",
                    image.inputs().stream()
                            .map(i -> Map.of(
                                    "role",
                                    i.mask() ? "mask" : "image",
                                    "mime_type",
                                    i.mimeType(),
                                    "bytes",
                                    i.bytes().length))
                            .toList());
        }
        return out;
    }

    /** A video job's parameters, under the request's own field names. */
    static Map<String, Object> video(io.idem.core.domain.VideoParams v) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("duration_seconds", v.durationSeconds());
        out.put("resolution", v.resolution());
        out.put("aspect_ratio", v.aspectRatio());
        out.put("fps", v.fps().orElse(null));
        out.put("seed", v.seed().orElse(null));
        out.put("negative_prompt", v.negativePrompt().orElse(null));
        out.put("start_image", v.startImage().orElse(null));
        out.put("end_image", v.endImage().orElse(null));
        out.put("audio", v.audio());
        return out;
    }

    public static Map<String, Object> attempt(Attempt a) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", a.id().toString());
        out.put("provider", a.provider());
        out.put("model", a.model());
        out.put("round", a.round());
        out.put("status", a.status().wire());
        out.put("error_class", a.errorClass().orElse(null));
        out.put("error_code", a.errorCode().orElse(null));
        out.put("http_status", a.httpStatus() == 0 ? null : a.httpStatus());
        out.put("provider_request_id", a.providerRequestId().orElse(null));
        out.put("latency_ms", a.latencyMs().orElse(null));
        out.put("billable", a.billable().wire());
        out.put("cost_usd", a.costUsd().stripTrailingZeros().toPlainString());
        out.put("started_at", a.startedAt().toString());
        out.put("finished_at", a.finishedAt().map(Object::toString).orElse(null));
        return out;
    }

    public static Map<String, Object> event(JobEvent e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", e.id());
        out.put("type", e.type().wire());
        out.put("from", e.fromState().map(s -> s.wire()).orElse(null));
        out.put("to", e.toState().map(s -> s.wire()).orElse(null));
        out.put("actor", e.actor());
        try {
            out.put("detail", Json.MAPPER.readTree(e.detailJson()));
        } catch (java.io.IOException ex) {
            out.put("detail", Map.of());
        }
        out.put("at", e.at().toString());
        return out;
    }
}
