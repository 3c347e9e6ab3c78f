package io.idem.testkit;

import io.idem.core.domain.JobEvent;
import io.idem.core.domain.JobEventType;
import io.idem.core.domain.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The in-memory stores' {@code job_events}: numbered in write order. Guarded by its store's lock. */
final class JobTrace {
    private final List<JobEvent> events = new ArrayList<>();

    void add(UUID jobId, JobEventType type, JobState from, JobState to, String actor, Instant at) {
        events.add(new JobEvent(
                events.size() + 1L, jobId, type, Optional.ofNullable(from), Optional.ofNullable(to), actor, "{}", at));
    }

    List<JobEvent> of(UUID jobId) {
        return events.stream().filter(e -> e.jobId().equals(jobId)).toList();
    }
}
