package io.idem.server.wiring;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a node has started, to be stopped in reverse order: a later part may use an earlier one
 * while it stops (the HTTP server the database, say). A part that fails to stop is logged and the
 * rest still stop. Not thread-safe: one node's start and close.
 */
public final class Resources implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Resources.class);
    private final Deque<AutoCloseable> started = new ArrayDeque<>();

    /** Remembers {@code resource} for {@link #close()}; returns it. */
    public <T extends AutoCloseable> T push(T resource) {
        started.push(resource);
        return resource;
    }

    /** Stops everything pushed, the last first. */
    @Override
    public void close() {
        while (!started.isEmpty()) {
            AutoCloseable resource = started.pop();
            try {
                resource.close();
            } catch (Exception e) {
                log.warn("error while stopping {}", resource, e);
            }
        }
    }
}
