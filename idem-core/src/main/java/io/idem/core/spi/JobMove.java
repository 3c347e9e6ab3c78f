package io.idem.core.spi;

import java.util.List;

/** What a settled attempt does to its job. */
public sealed interface JobMove {
    /** The job stays running and goes on to its next candidate. */
    record Continue() implements JobMove {}

    /** The attempt delivered: the job succeeds with these assets. */
    record Succeed(List<StoredAsset> assets) implements JobMove {
        public Succeed {
            assets = List.copyOf(assets);
        }
    }

    /** The job fails; {@code errorClass} is the outcome class that ended it. */
    record Fail(String code, String message, String errorClass) implements JobMove {}

    /** The outcome is unknown: park in manual_review for reconcile or an operator. */
    record Park(String reason) implements JobMove {}
}
