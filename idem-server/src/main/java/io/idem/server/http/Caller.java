package io.idem.server.http;

import io.idem.core.domain.ApiKey;
import io.idem.core.domain.Role;

/** The authenticated key behind a request. */
public record Caller(ApiKey key) {
    public String owner() {
        return key.owner();
    }

    public Role role() {
        return key.role();
    }

    /** The owner filter for reads: {@code null} (everyone) for operators and admins. */
    public String ownerScope() {
        return key.role().seesAllOwners() ? null : key.owner();
    }

    public String actor() {
        return "key:" + key.id();
    }
}
