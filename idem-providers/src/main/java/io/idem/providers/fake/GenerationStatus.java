package io.idem.providers.fake;

import java.util.Locale;

/** Where one of the fake vendor's generations stands. Only a running generation may change. */
enum GenerationStatus {
    RUNNING,
    SUCCEEDED,
    FAILED,
    CANCELED;

    String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The whitelist of moves: a running generation ends exactly once, then stays as it ended. */
    boolean canBecome(GenerationStatus next) {
        return switch (this) {
            case RUNNING -> next != RUNNING;
            case SUCCEEDED, FAILED, CANCELED -> false;
        };
    }
}
