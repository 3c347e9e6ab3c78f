package io.idem.server.chat;

import io.idem.core.chat.ChatAttempt;
import java.time.Duration;
import java.util.List;

/** What the chat API says about its own time: the metrics' gateway overhead. Thread-safe. */
@FunctionalInterface
public interface ChatTimings {
    /**
     * A plain call's chain ended.
     *
     * @param total from the request's arrival to the chain's end
     * @param attempts the chain's attempts, whose latencies are the time spent waiting on providers
     */
    void ended(Duration total, List<ChatAttempt> attempts);
}
