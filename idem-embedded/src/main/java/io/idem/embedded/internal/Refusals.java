package io.idem.embedded.internal;

import io.idem.embedded.InvalidRequestException;
import io.idem.embedded.NoSuchJobException;
import io.idem.embedded.UnableToResolveException;
import io.idem.server.http.ApiError;
import java.util.UUID;

/** The server's refusals as the API's exceptions: 404 no such job, 409 cannot resolve now, else invalid. */
final class Refusals {
    private Refusals() {}

    static RuntimeException of(ApiError error, UUID jobId) {
        if (jobId != null && error.status() == 404) {
            return new NoSuchJobException(jobId);
        }
        if (jobId != null && error.status() == 409) {
            return new UnableToResolveException(jobId, error.code(), error.getMessage());
        }
        return new InvalidRequestException(error.code(), error.getMessage());
    }
}
