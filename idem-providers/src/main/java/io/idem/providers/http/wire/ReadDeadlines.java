package io.idem.providers.http.wire;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Ends blocking reads that pass their deadline by closing their connection, from one platform
 * thread that looks every {@link #TICK_NANOS} while reads are watched.
 *
 * <p>Why not the socket's own {@code SO_TIMEOUT}: on a virtual thread, a timed read parks with a
 * timeout, and each such park schedules and then cancels a task in the JDK's delay scheduler,
 * waking its thread twice per read; a profile of chat at saturation put about an eighth of Idem's
 * CPU there. A watched read parks without a timeout, and watching costs a set insert and remove.
 * A deadline fires up to one tick late. Thread-safe.
 */
final class ReadDeadlines {
    /** How often the watcher looks while reads are watched: the most a deadline may fire late. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** How long the watcher keeps ticking with nothing to watch before it sleeps until asked. */
    private static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(2);

    static final ReadDeadlines SHARED = new ReadDeadlines();

    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();
    private final Thread watcher;
    private volatile boolean asleep;

    /** One watched read: its connection is closed once {@code deadline} ({@code System.nanoTime()}) passes. */
    static final class Watch implements AutoCloseable {
        private final ReadDeadlines owner;
        private final Connection connection;
        private final long deadline;
        private volatile boolean fired;

        private Watch(ReadDeadlines owner, Connection connection, long deadline) {
            this.owner = owner;
            this.connection = connection;
            this.deadline = deadline;
        }

        /** Whether the deadline passed and the connection was closed for it. */
        boolean fired() {
            return fired;
        }

        /** Stops watching; the connection stays as it is. */
        @Override
        public void close() {
            owner.watched.remove(this);
        }
    }

    private ReadDeadlines() {
        watcher = Thread.ofPlatform().daemon().name("idem-http-deadlines").start(this::watch);
    }

    /** Watches a read on {@code connection} that must end by {@code deadline} ({@code System.nanoTime()}). */
    Watch watch(Connection connection, long deadline) {
        Watch w = new Watch(this, connection, deadline);
        watched.add(w);
        if (asleep) {
            LockSupport.unpark(watcher);
        }
        return w;
    }

    private void watch() {
        long lastBusy = System.nanoTime();
        while (true) {
            long now = System.nanoTime();
            if (watched.isEmpty()) {
                if (now - lastBusy > LINGER_NANOS) {
                    asleep = true;
                    if (watched.isEmpty()) {
                        LockSupport.park(this);
                    }
                    asleep = false;
                    lastBusy = System.nanoTime();
                    continue;
                }
            } else {
                lastBusy = now;
                for (Watch w : watched) {
                    if (now - w.deadline >= 0) {
                        w.fired = true;
                        watched.remove(w);
                        w.connection.sever();
                    }
                }
            }
            LockSupport.parkNanos(this, TICK_NANOS);
        }
    }
}
