package io.idem.core.chat;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Chain-wide settings ({@code redundancy} on a request, or the timeouts and {@code on} of a key's
 * {@code failover_defaults}); an entry's own values win over these. Values are already validated
 * against {@link ChainLimits}.
 *
 * @param on the failures that may trigger failover; empty means "never fail over"
 * @param deadline bounds all attempts of the chain together
 * @param midStream what a stream does when its model fails after content ({@link MidStream#LOCK} by default)
 * @param streamIdleTimeout how long a stream may stay silent after its first token
 * @param retries how often each model is tried again after a failure known to be unbilled
 */
public record ChainSettings(
        Optional<Duration> timeout,
        Optional<Duration> firstTokenTimeout,
        Optional<Set<Trigger>> on,
        Optional<Duration> deadline,
        Optional<MidStream> midStream,
        Optional<Duration> streamIdleTimeout,
        Optional<Integer> retries) {
    public static final ChainSettings NONE =
            new ChainSettings(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    /** Settings that leave {@code mid_stream} to the default. */
    public ChainSettings(
            Optional<Duration> timeout,
            Optional<Duration> firstTokenTimeout,
            Optional<Set<Trigger>> on,
            Optional<Duration> deadline) {
        this(timeout, firstTokenTimeout, on, deadline, Optional.empty());
    }

    /** Settings that leave the stream-idle timeout and the retries to the defaults. */
    public ChainSettings(
            Optional<Duration> timeout,
            Optional<Duration> firstTokenTimeout,
            Optional<Set<Trigger>> on,
            Optional<Duration> deadline,
            Optional<MidStream> midStream) {
        this(timeout, firstTokenTimeout, on, deadline, midStream, Optional.empty(), Optional.empty());
    }

    public ChainSettings {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(firstTokenTimeout, "firstTokenTimeout");
        on = on.map(Set::copyOf);
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(midStream, "midStream");
        Objects.requireNonNull(streamIdleTimeout, "streamIdleTimeout");
        Objects.requireNonNull(retries, "retries");
    }
}
