package io.idem.core.spi;

/** What a vendor says when asked to cancel a call. */
public sealed interface CancelAnswer {
    /** Canceled before it billed. */
    record Canceled(String detail) implements CancelAnswer {}

    /** Too late: the call finished (or is past cancelling). */
    record TooLate(String detail) implements CancelAnswer {}

    /** The vendor could not be reached or gave no clear answer. */
    record Unclear(String detail) implements CancelAnswer {}

    record Unsupported(String detail) implements CancelAnswer {}
}
