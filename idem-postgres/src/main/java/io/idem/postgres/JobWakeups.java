package io.idem.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes workers on other nodes when jobs are queued. Sending is coalesced (at most one NOTIFY per
 * {@link #COALESCE_MILLIS}) and always outside the transaction that inserted the job: a NOTIFY in a
 * committing transaction serialises commits (DESIGN §4). Listening uses one dedicated connection
 * and reconnects when it drops. A missed wake-up costs latency only: workers also poll.
 */
public final class JobWakeups implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(JobWakeups.class);
    static final String CHANNEL = "idem_jobs";
    static final long COALESCE_MILLIS = 5;

    private final Database db;
    private final Runnable onWake;
    private final java.util.Map<String, java.util.function.Consumer<String>> channels;
    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile boolean running = true;
    private final Thread listener;
    private final Thread sender;

    public JobWakeups(Database db, Runnable onWake) {
        this(db, onWake, java.util.Map.of());
    }

    /** Also listens on {@code channels}, handing each notification's payload to its handler. */
    public JobWakeups(
            Database db, Runnable onWake, java.util.Map<String, java.util.function.Consumer<String>> channels) {
        this.db = db;
        this.onWake = onWake;
        this.channels = java.util.Map.copyOf(channels);
        this.listener = Thread.ofVirtual().name("idem-listen").start(this::listen);
        this.sender = Thread.ofVirtual().name("idem-notify").start(this::sendLoop);
    }

    /** Asks other nodes to look for jobs soon. Cheap; many calls coalesce into one NOTIFY. */
    public void announce() {
        if (pending.compareAndSet(false, true)) {
            java.util.concurrent.locks.LockSupport.unpark(sender);
        }
    }

    private void sendLoop() {
        while (running) {
            if (!pending.get()) {
                java.util.concurrent.locks.LockSupport.park(this);
                continue;
            }
            try {
                Thread.sleep(COALESCE_MILLIS);
                pending.set(false);
                db.withConnection(c -> {
                    try (Statement st = c.createStatement()) {
                        return st.execute("NOTIFY " + CHANNEL);
                    }
                });
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.warn("could not send a job wake-up; workers will find the job by polling", e);
            }
        }
    }

    private void listen() {
        while (running) {
            try (Connection c = db.listenConnection()) {
                try (Statement st = c.createStatement()) {
                    st.execute("LISTEN " + CHANNEL);
                    for (String channel : channels.keySet()) {
                        st.execute("LISTEN " + channel);
                    }
                }
                // Anything announced while we were not listening is caught up now.
                channels.values().forEach(handler -> dispatch(handler, "*"));
                onWake.run();
                PGConnection pg = c.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notes = pg.getNotifications(1000);
                    if (notes == null) {
                        continue;
                    }
                    boolean wake = false;
                    for (PGNotification note : notes) {
                        var handler = channels.get(note.getName());
                        if (handler == null) {
                            wake = true;
                        } else {
                            dispatch(handler, note.getParameter());
                        }
                    }
                    if (wake) {
                        onWake.run();
                    }
                }
            } catch (SQLException e) {
                if (running) {
                    log.warn("job wake-up listener lost its connection; reconnecting", e);
                    sleepQuietly();
                }
            }
        }
    }

    private static void dispatch(java.util.function.Consumer<String> handler, String payload) {
        try {
            handler.accept(payload);
        } catch (RuntimeException e) {
            log.warn("a notification handler failed; the next poll or notification catches up", e);
        }
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        listener.interrupt();
        sender.interrupt();
    }
}
