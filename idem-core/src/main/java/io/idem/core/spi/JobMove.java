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

    /**
     * The job fails; {@code errorClass} is the outcome class that ended it. {@code withheld}: a paid
     * result the client may not have (output moderation flagged it), kept for an operator.
     */
    record Fail(String code, String message, String errorClass, List<StoredAsset> withheld) implements JobMove {
        public Fail {
            withheld = List.copyOf(withheld);
        }

        /** A failure with no result kept. */
        public Fail(String code, String message, String errorClass) {
            this(code, message, errorClass, List.of());
        }
    }

    /** The outcome is unknown: park in manual_review for reconcile or an operator. */
    record Park(String reason) implements JobMove {}
}
