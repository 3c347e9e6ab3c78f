package io.idem.core.chat;

import java.time.Duration;

/**
 * A {@link ChatAuditSink} that takes records at once and commits them in the background, many
 * per transaction (the group commit of DESIGN §2). A record it took is committed before {@link
 * #close()} returns, unless the process dies first. Thread-safe.
 */
public interface ChatAuditWriter extends ChatAuditSink, AutoCloseable {
    /** Waits until every record taken so far is committed, or {@code max} passes; true if it is. */
    boolean awaitWritten(Duration max) throws InterruptedException;

    /** Commits everything taken so far, then stops; later records are written one by one. */
    @Override
    void close();
}
