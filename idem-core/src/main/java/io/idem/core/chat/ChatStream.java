package io.idem.core.chat;

import java.time.Duration;
import java.util.Optional;

/**
 * A vendor's answer arriving piece by piece. Pulled by one thread; {@link #close()} may come from
 * any thread and aborts the vendor call.
 */
public interface ChatStream extends AutoCloseable {

    /**
     * The next event, waiting at most {@code wait}; empty when nothing came in time (the stream is
     * still open: the caller decides whether that is a timeout). After a terminal event ({@link
     * ChatEvent.Finished} or {@link ChatEvent.Failed}) no more events come.
     */
    Optional<ChatEvent> next(Duration wait) throws InterruptedException;

    /**
     * Whether the request may have reached the vendor: false only when it provably did not (it is
     * what separates {@code Unavailable} from {@code Unconfirmed} when we abandon a stream).
     */
    boolean requestSent();

    /** Aborts the vendor call if it is still running. Idempotent. */
    @Override
    void close();
}
