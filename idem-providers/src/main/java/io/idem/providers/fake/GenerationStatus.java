package io.idem.providers.fake;

import java.util.Locale;

/** Where one of the fake vendor's generations stands. Only a running generation may change. */
enum GenerationStatus {
    RUNNING,
    SUCCEEDED,
    FAILED,
    CANCELED,
    /** Refused for its content: nothing generated, nothing billed, and no other vendor should try. */
    REJECTED_POLICY,
    /** Refused as invalid input: nothing generated, nothing billed. */
    REJECTED_INPUT;

    String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The whitelist of moves: a running generation ends exactly once, then stays as it ended. */
    boolean canBecome(GenerationStatus next) {
        return switch (this) {
            case RUNNING -> next != RUNNING;
            case SUCCEEDED, FAILED, CANCELED, REJECTED_POLICY, REJECTED_INPUT -> false;
        };
    }
}
