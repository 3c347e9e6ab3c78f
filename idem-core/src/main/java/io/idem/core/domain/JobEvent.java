package io.idem.core.domain;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** One entry of a job's trace: every transition, and notable steps in between. */
public record JobEvent(
        long id,
        UUID jobId,
        JobEventType type,
        Optional<JobState> fromState,
        Optional<JobState> toState,
        String actor,
        String detailJson,
        Instant at) {}
