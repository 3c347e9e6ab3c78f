package io.idem.core.spi;

import java.net.URI;
import java.util.Optional;
import java.util.UUID;

/** Where a vendor may call back about one attempt: a signed URL, or none when Idem has no public address. */
@FunctionalInterface
public interface CallbackAddress {
    Optional<URI> forAttempt(String provider, UUID attemptId);

    CallbackAddress NONE = (provider, attemptId) -> Optional.empty();
}
