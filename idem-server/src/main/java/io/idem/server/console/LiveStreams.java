package io.idem.server.console;

import io.javalin.http.sse.SseClient;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes fragments of HTML over server-sent events whenever what they show changes. Streams poll
 * the database (the source of truth, shared by every node) rather than listening to one node's
 * workers, so a page shows jobs moved by any node. A stream ends when the browser leaves, the
 * session ends, its snapshot is final, the server stops, or after {@link #MAX_LIFE} (htmx then
 * reconnects). Thread-safe.
 */
final class LiveStreams {
    private static final Logger log = LoggerFactory.getLogger(LiveStreams.class);
    static final Duration MAX_LIFE = Duration.ofMinutes(5);
    /** Often enough to notice a closed tab soon (a write to it fails). */
    private static final Duration HEARTBEAT = Duration.ofSeconds(5);

    private static final long TICK_MILLIS = 100;

    private final AtomicInteger active = new AtomicInteger();
    private volatile boolean stopping;

    /** What the page should show now: a fingerprint to compare, the HTML, and whether it is final. */
    record Snapshot(String fingerprint, Supplier<String> html, boolean last) {}

    /**
     * Runs on the request's (virtual) thread until the stream ends. Sends {@code event} with the
     * fragment on every change, and a {@code done} event after a final snapshot.
     */
    void run(SseClient client, String event, Duration every, Supplier<Snapshot> snapshot, BooleanSupplier allowed) {
        active.incrementAndGet();
        long deadline = System.nanoTime() + MAX_LIFE.toNanos();
        long nextBeat = System.nanoTime() + HEARTBEAT.toNanos();
        String shown = null;
        try {
            while (running(client, deadline) && allowed.getAsBoolean()) {
                Snapshot now = snapshot.get();
                if (!Objects.equals(now.fingerprint(), shown)) {
                    client.sendEvent(event, now.html().get());
                    shown = now.fingerprint();
                }
                if (now.last()) {
                    client.sendEvent("done", "");
                    break;
                }
                if (System.nanoTime() > nextBeat) {
                    client.sendComment("still here");
                    nextBeat = System.nanoTime() + HEARTBEAT.toNanos();
                }
                long wake = System.nanoTime() + every.toNanos();
                while (running(client, deadline) && System.nanoTime() < wake) {
                    Thread.sleep(TICK_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (!stopping) {
                log.warn("a console live stream ended by a failure", e);
            }
        } finally {
            try {
                client.close();
            } finally {
                active.decrementAndGet();
            }
        }
    }

    private boolean running(SseClient client, long deadline) {
        return !stopping && !client.terminated() && System.nanoTime() < deadline;
    }

    /** Ends every stream and waits (at most {@code grace}) for them to let go of their requests. */
    void stop(Duration grace) {
        stopping = true;
        long until = System.nanoTime() + grace.toNanos();
        while (active.get() > 0 && System.nanoTime() < until) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
