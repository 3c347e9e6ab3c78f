package io.idem.core.chat;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A resolved chain: 1..3 distinct models in order, each with its effective timeouts, the failures
 * that may trigger failover, and the deadline of the whole chain.
 *
 * @param requestedModel the model the caller asked for first (the report's {@code requested_model})
 * @param midStream what a stream does when its model fails after content
 */
public record Chain(List<Link> links, Set<Trigger> on, Duration deadline, String requestedModel, MidStream midStream) {

    /** A chain whose streams stay locked to their model. */
    public Chain(List<Link> links, Set<Trigger> on, Duration deadline, String requestedModel) {
        this(links, on, deadline, requestedModel, MidStream.LOCK);
    }

    /**
     * One model of the chain with the timeouts that apply to its attempts.
     *
     * @param streamIdleTimeout how long a stream may stay silent after its first token before it is cut
     * @param retries how often the model is tried again after a failure known to be unbilled
     */
    public record Link(
            String model, Duration timeout, Duration firstTokenTimeout, Duration streamIdleTimeout, int retries) {
        public Link {
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(firstTokenTimeout, "firstTokenTimeout");
            Objects.requireNonNull(streamIdleTimeout, "streamIdleTimeout");
            if (retries < 0 || retries > ChainLimits.MAX_RETRIES) {
                throw new IllegalArgumentException(
                        "a link retries 0.." + ChainLimits.MAX_RETRIES + " times, was " + retries);
            }
        }

        /** A link that never retries, with the default stream-idle timeout. */
        public Link(String model, Duration timeout, Duration firstTokenTimeout) {
            this(model, timeout, firstTokenTimeout, ChainLimits.DEFAULT_STREAM_IDLE, 0);
        }
    }

    public Chain {
        links = List.copyOf(links);
        on = Set.copyOf(on);
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(requestedModel, "requestedModel");
        Objects.requireNonNull(midStream, "midStream");
        if (links.isEmpty() || links.size() > ChainLimits.MAX_MODELS) {
            throw new IllegalArgumentException(
                    "a chain has 1.." + ChainLimits.MAX_MODELS + " links, was " + links.size());
        }
        if (links.stream().map(Link::model).distinct().count() != links.size()) {
            throw new IllegalArgumentException("a chain's models are distinct: " + links);
        }
    }

    /** More than one model: the response carries a failover report. */
    public boolean multiModel() {
        return links.size() > 1;
    }

    public List<String> models() {
        return links.stream().map(Link::model).toList();
    }
}
