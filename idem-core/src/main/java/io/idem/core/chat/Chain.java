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

    /** One model of the chain with the timeouts that apply to its attempt. */
    public record Link(String model, Duration timeout, Duration firstTokenTimeout) {
        public Link {
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(firstTokenTimeout, "firstTokenTimeout");
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
