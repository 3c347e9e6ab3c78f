package io.idem.core.domain;

/** The states of a job (DESIGN §4). {@link JobTransitions} says which moves between them are legal. */
public enum JobState {
    QUEUED,
    RUNNING,
    SUCCEEDED,
    FAILED,
    MANUAL_REVIEW,
    CANCELED;

    /** The lower-case name used on the wire and in the database. */
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static JobState fromWire(String value) {
        for (JobState state : values()) {
            if (state.wire().equals(value)) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown job state: '" + value + "'");
    }

    public boolean isTerminal() {
        return switch (this) {
            case SUCCEEDED, FAILED, CANCELED -> true;
            case QUEUED, RUNNING, MANUAL_REVIEW -> false;
        };
    }
}
