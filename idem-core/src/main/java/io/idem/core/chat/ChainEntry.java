package io.idem.core.chat;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One requested model of a chain, with its own settings when it names them.
 *
 * @param streamIdleTimeout how long a stream may stay silent after its first token ({@code stream_idle_timeout_ms})
 * @param retries how often the same model is tried again after a failure known to be unbilled ({@code retries})
 */
public record ChainEntry(
        String model,
        Optional<Duration> timeout,
        Optional<Duration> firstTokenTimeout,
        Optional<Duration> streamIdleTimeout,
        Optional<Integer> retries) {
    public ChainEntry {
        Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("a chain entry needs a model name");
        }
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(firstTokenTimeout, "firstTokenTimeout");
        Objects.requireNonNull(streamIdleTimeout, "streamIdleTimeout");
        Objects.requireNonNull(retries, "retries");
    }

    /** An entry with its own timeouts only. */
    public ChainEntry(String model, Optional<Duration> timeout, Optional<Duration> firstTokenTimeout) {
        this(model, timeout, firstTokenTimeout, Optional.empty(), Optional.empty());
    }

    /** Just a model name. */
    public static ChainEntry of(String model) {
        return new ChainEntry(model, Optional.empty(), Optional.empty());
    }
}
