package io.idem.core.domain;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** A stored API key: never the secret, only its visible prefix. */
public record ApiKey(UUID id, String prefix, String owner, Role role, Instant createdAt, Optional<Instant> revokedAt) {}
