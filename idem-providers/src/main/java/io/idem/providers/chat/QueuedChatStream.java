package io.idem.providers.chat;

import io.idem.core.chat.ChatEvent;
import io.idem.core.chat.ChatStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ChatStream} fed by a reader thread: the reader {@link #emit}s what the vendor says, the
 * call's thread pulls with a timeout. After a terminal event, or once closed, further events are
 * dropped. {@link #close()} runs the registered aborts (cancel the exchange, close the body) so a
 * blocked reader wakes up. Thread-safe.
 */
final class QueuedChatStream implements ChatStream {
    private static final Logger log = LoggerFactory.getLogger(QueuedChatStream.class);

    private final BlockingQueue<ChatEvent> events = new LinkedBlockingQueue<>();
    private final BooleanSupplier sent;
    private final List<AutoCloseable> aborts = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    private volatile boolean ended;

    /** @param sent whether the request may have reached the vendor */
    QueuedChatStream(BooleanSupplier sent) {
        this.sent = sent;
    }

    /** A stream whose events are all known already (the static tier). */
    static QueuedChatStream of(List<ChatEvent> events) {
        QueuedChatStream stream = new QueuedChatStream(() -> false);
        events.forEach(stream::emit);
        return stream;
    }

    /** Adds an event; a terminal one ends the stream. Ignored once ended or closed. */
    synchronized void emit(ChatEvent event) {
        if (closed || ended) {
            return;
        }
        events.add(event);
        if (!(event instanceof ChatEvent.Token)) {
            ended = true;
        }
    }

    boolean closed() {
        return closed;
    }

    /** Registers something to close when the stream is closed (at once if it already is). */
    void onClose(AutoCloseable abort) {
        aborts.add(abort);
        if (closed) {
            closeQuietly(abort);
        }
    }

    @Override
    public Optional<ChatEvent> next(Duration wait) throws InterruptedException {
        return Optional.ofNullable(events.poll(Math.max(0, wait.toNanos()), TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean requestSent() {
        return sent.getAsBoolean();
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        aborts.forEach(QueuedChatStream::closeQuietly);
    }

    private static void closeQuietly(AutoCloseable abort) {
        try {
            abort.close();
        } catch (Exception e) {
            log.debug("ignoring a failure while aborting a chat stream: {}", e.toString());
        }
    }
}
