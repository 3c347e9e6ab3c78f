package io.idem.core.domain;

import java.util.Arrays;
import java.util.Optional;

/** The decisions an operator can take on a job parked in {@code manual_review}; each is audited with a note. */
public enum ReviewAction {
    /** Open a new round: the job goes back to the queue for its next candidates. */
    RETRY("retry"),
    /** End the job as failed ({@code operator_failed}). */
    FAIL("fail"),
    /** Take the open attempt's result as delivered: the job succeeds with it. */
    CONFIRM_RESULT("confirm_result");

    private final String wire;

    ReviewAction(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<ReviewAction> fromWire(String value) {
        return Arrays.stream(values()).filter(a -> a.wire.equals(value)).findFirst();
    }

    /** The wire names, for messages that list the choices. */
    public static String choices() {
        return Arrays.stream(values()).map(ReviewAction::wire).toList().toString();
    }
}
