package io.idem.core.spi;

import java.util.Objects;
import java.util.UUID;

/** The right to write a running job: every job write is fenced by its token. */
public record Lease(UUID jobId, UUID token) {
    public Lease {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(token, "token");
    }
}
