package io.idem.core.chat;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** One requested model of a chain, with its own timeouts when it names them. */
public record ChainEntry(String model, Optional<Duration> timeout, Optional<Duration> firstTokenTimeout) {
    public ChainEntry {
        Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("a chain entry needs a model name");
        }
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(firstTokenTimeout, "firstTokenTimeout");
    }

    /** Just a model name. */
    public static ChainEntry of(String model) {
        return new ChainEntry(model, Optional.empty(), Optional.empty());
    }
}
