package io.idem.providers.fake;

/** What became of a cancel request. */
sealed interface CancelResult {
    /** The generation was running and is now canceled, off the invoice. */
    record Canceled(Generation generation) implements CancelResult {}

    /** The generation had already ended; nothing changed. */
    record AlreadyFinished(Generation generation) implements CancelResult {}

    /** No generation has this id. */
    record NotFound() implements CancelResult {}
}
