package io.idem.providers.http.wire;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Ends blocking reads that pass their deadline by closing their connection, from one platform
 * thread that sleeps until the earliest deadline it watches.
 *
 * <p>Why not the socket's own {@code SO_TIMEOUT}: on a virtual thread, a timed read parks with a
 * timeout, and each such park schedules and then cancels a task in the JDK's delay scheduler,
 * waking its thread twice per read; a profile of chat at saturation put about an eighth of Idem's
 * CPU there. A watched read parks without a timeout, and watching costs a set insert and remove.
 *
 * <p>The watcher wakes only when a deadline it planned for comes (the read behind it has most often
 * ended by then, and it plans again), or when a read is watched whose deadline is earlier than the
 * one it sleeps toward. Vendor reads wait seconds, so under steady traffic it wakes about once per
 * read timeout rather than once per read or per tick. Thread-safe.
 */
final class ReadDeadlines {
    /** {@link #wakeAt} while nothing is watched: the watcher sleeps until a read is watched. */
    private static final long ASLEEP = Long.MAX_VALUE;

    static final ReadDeadlines SHARED = new ReadDeadlines();

    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();
    private final Thread watcher;
    /** When ({@code System.nanoTime()}) the watcher looks next, or {@link #ASLEEP}. */
    private volatile long wakeAt = ASLEEP;
    /** How many times the watcher has woken, for tests. */
    private volatile long wakes;

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
        // after the add: either the watcher's second look (below) sees this read, or this sees its plan
        long planned = wakeAt;
        if (planned == ASLEEP || deadline - planned < 0) {
            LockSupport.unpark(watcher);
        }
        return w;
    }

    /** How many times the watcher has woken since the JVM started. */
    long wakes() {
        return wakes;
    }

    private void watch() {
        while (true) {
            wakes++; // only this thread writes it
            long next = sweep();
            wakeAt = next;
            // a read watched before the plan was published may have seen the old plan and not woken us;
            // a later earliest only means a read ended meanwhile, and waking early for it is harmless
            long again = sweep();
            if (again != ASLEEP && (next == ASLEEP || again - next < 0)) {
                continue;
            }
            if (next == ASLEEP) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, next - System.nanoTime());
            }
        }
    }

    /** Ends the reads whose deadline has passed; returns the earliest deadline left, or {@link #ASLEEP}. */
    private long sweep() {
        long now = System.nanoTime();
        long earliest = ASLEEP;
        for (Watch w : watched) {
            if (now - w.deadline >= 0) {
                w.fired = true;
                watched.remove(w);
                w.connection.sever();
            } else if (earliest == ASLEEP || w.deadline - earliest < 0) {
                earliest = w.deadline;
            }
        }
        return earliest;
    }
}
