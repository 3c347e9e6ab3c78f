package io.idem.testkit;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Test data builder for jobs as a store returns them (JobRunr's {@code aQueuedJob()}). */
public final class JobBuilder {
    private final UUID id = UUID.randomUUID();
    private JobState state;
    private JobSpec spec = JobSpecBuilder.aJobSpec().build();
    private int round = 1;
    private Optional<Job.Review> review = Optional.empty();
    private Instant createdAt = ManualClock.DEFAULT_START;
    private final List<Attempt> attempts = new ArrayList<>();

    private JobBuilder(JobState state) {
        this.state = state;
    }

    public static JobBuilder aQueuedJob() {
        return new JobBuilder(JobState.QUEUED);
    }

    public static JobBuilder aRunningJob() {
        return new JobBuilder(JobState.RUNNING);
    }

    /** A job in manual_review since {@code since}, for {@code reason}. */
    public static JobBuilder aParkedJob(String reason, Instant since) {
        JobBuilder job = new JobBuilder(JobState.MANUAL_REVIEW);
        job.review = Optional.of(new Job.Review(reason, since));
        return job;
    }

    public JobBuilder spec(JobSpec value) {
        spec = value;
        return this;
    }

    public JobBuilder round(int value) {
        round = value;
        return this;
    }

    public JobBuilder createdAt(Instant value) {
        createdAt = value;
        return this;
    }

    /** Adds an attempt of this job: the builder is given the job's id and round. */
    public JobBuilder withAttempt(AttemptBuilder attempt) {
        attempts.add(attempt.ofJob(id).round(round).build());
        return this;
    }

    public UUID id() {
        return id;
    }

    public Job build() {
        return new Job(
                id,
                "alice",
                state,
                spec,
                round,
                Optional.empty(),
                Optional.empty(),
                review,
                new Job.Times(createdAt, createdAt),
                attempts);
    }
}
