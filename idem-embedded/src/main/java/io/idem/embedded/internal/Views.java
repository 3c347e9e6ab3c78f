package io.idem.embedded.internal;

import io.idem.core.chat.ChatAttempt;
import io.idem.embedded.ChatAnswer;
import io.idem.embedded.Job;
import io.idem.embedded.JobState;
import java.util.List;

/** The engine's jobs and chat attempts as the API's values. */
final class Views {
    private Views() {}

    static Job job(io.idem.core.domain.Job job) {
        var spec = job.spec();
        return new Job(
                job.id(),
                state(job.state()),
                new Job.What(
                        spec.prompt(),
                        spec.kind().wire(),
                        spec.lane(),
                        java.util.Optional.ofNullable(spec.model()),
                        spec.candidates()),
                job.createdAt(),
                job.updatedAt(),
                job.result()
                        .map(r -> new Job.Result(
                                r.provider(),
                                r.assets().stream()
                                        .map(a -> new Job.Asset(a.id(), a.mimeType(), a.bytes()))
                                        .toList())),
                job.error().map(e -> new Job.Failure(e.code(), e.message(), e.errorClass())),
                job.review().map(r -> new Job.Review(r.reason(), r.since())),
                job.attempts().stream().map(Views::attempt).toList());
    }

    private static Job.Attempt attempt(io.idem.core.domain.Attempt a) {
        return new Job.Attempt(
                a.id(),
                a.provider(),
                a.model(),
                a.status().wire(),
                a.errorClass(),
                a.httpStatus(),
                a.providerRequestId(),
                a.latencyMs(),
                a.billable().wire(),
                a.costUsd());
    }

    static JobState state(io.idem.core.domain.JobState state) {
        return switch (state) {
            case QUEUED -> JobState.QUEUED;
            case RUNNING -> JobState.RUNNING;
            case SUCCEEDED -> JobState.SUCCEEDED;
            case FAILED -> JobState.FAILED;
            case MANUAL_REVIEW -> JobState.MANUAL_REVIEW;
            case CANCELED -> JobState.CANCELED;
        };
    }

    static List<ChatAnswer.Attempt> attempts(List<ChatAttempt> attempts) {
        return attempts.stream()
                .map(a -> new ChatAnswer.Attempt(
                        a.model().name(),
                        a.model().provider(),
                        a.result().outcome(),
                        a.result().httpStatus(),
                        a.latency().toMillis(),
                        a.result().billable().wire(),
                        a.result().costUsd()))
                .toList();
    }
}
