package io.idem.testkit;

import io.idem.core.domain.Job;
import io.idem.core.domain.JobSpec;
import io.idem.core.spi.JobQueueStore;
import io.idem.testkit.contract.JobQueueStoreContract;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;

/** The in-memory store passes the same contract as PostgreSQL. */
class InMemoryJobQueueStoreTest extends JobQueueStoreContract {
    private InMemoryJobQueueStore store;

    @BeforeEach
    void open() {
        store = new InMemoryJobQueueStore();
    }

    @Override
    protected JobQueueStore store() {
        return store;
    }

    @Override
    protected UUID accept(JobSpec spec, Instant createdAt) {
        return store.accept("alice", spec, createdAt);
    }

    @Override
    protected Job find(UUID jobId) {
        return store.find(jobId).orElseThrow();
    }

    @Override
    protected List<String> eventTypes(UUID jobId) {
        return store.events(jobId).stream().map(e -> e.type().wire()).toList();
    }
}
