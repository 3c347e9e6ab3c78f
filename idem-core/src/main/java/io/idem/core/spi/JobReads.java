package io.idem.core.spi;

import io.idem.core.domain.Job;
import io.idem.core.domain.JobEvent;
import io.idem.core.domain.JobState;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Reads jobs with their attempts, events and result assets, and the attempt audit summed per
 * provider. An {@code owner} of {@code null} reads every owner's jobs (admin and operator views);
 * otherwise another owner's job does not exist. Reads only; implementations are thread-safe.
 */
public interface JobReads {

    /** A page of jobs, newest first, and the cursor of the next page if there is one. */
    record Page(List<Job> jobs, Optional<Cursor> next) {
        public Page {
            jobs = List.copyOf(jobs);
        }
    }

    /** Where a page ends: the last job's creation time and id. */
    record Cursor(Instant createdAt, UUID id) {}

    /** A stored file, the job and owner it belongs to, and its content type. */
    /**
     * A stored result file, {@code bytes} long. {@code delivered}: it is its job's result; one that is not (a result
     * output moderation withheld, a late result of a losing attempt) is served to admins only.
     */
    record AssetFile(
            UUID id, UUID jobId, String owner, String mimeType, long bytes, String location, boolean delivered) {}

    /**
     * Per provider since a time, job and chat attempts together (a skipped chat model made no call):
     * calls, billed spend, and calls whose billing is unknown.
     */
    record Spend(String provider, long calls, BigDecimal billedUsd, long unknownCalls) {}

    /**
     * Recent health of one provider from the job and chat audit: calls, failures that count
     * (unavailable, unconfirmed), p95 latency (for a streamed chat attempt, its time to the first token).
     */
    record Health(String provider, long calls, long errors, Optional<Long> p95LatencyMs) {}

    Optional<Job> find(UUID id, String owner);

    /** Up to {@code limit} jobs after {@code after} ({@code null}: from the newest), of one state or all. */
    default Page list(String owner, JobState state, Cursor after, int limit) {
        return list(owner, state, null, after, limit);
    }

    /** As {@link #list(String, JobState, Cursor, int)}, of one kind ({@code null}: all). */
    Page list(String owner, JobState state, io.idem.core.domain.JobKind kind, Cursor after, int limit);

    /** A job's events, oldest first. */
    List<JobEvent> events(UUID jobId);

    /** Spend per provider from attempts started since {@code since}. */
    Map<String, Spend> spendSince(Instant since);

    /** Health per provider from attempts started since {@code since}. */
    Map<String, Health> healthSince(Instant since);

    Optional<AssetFile> asset(UUID id);

    /** The bytes of a result kept in the database (small ones are); empty for one kept in a file. */
    Optional<byte[]> assetContent(UUID id);

    /** Up to {@code limit} jobs parked in manual_review, oldest first. */
    List<Job> reviewQueue(int limit);
}
