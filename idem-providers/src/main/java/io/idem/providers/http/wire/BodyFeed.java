package io.idem.providers.http.wire;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Feeds a response body to the caller's {@link HttpResponse.BodySubscriber}, as much as it asks for
 * and no more. Runs on one thread ({@link #run()}); {@link #request} and {@link #cancel} may come
 * from any. Cancelling closes the connection, which ends a read in progress. At the end, {@code
 * done} learns whether the body was read to a clean end (the connection may be reused) or not.
 */
final class BodyFeed implements Flow.Subscription, Runnable {
    private static final int CHUNK = 16 * 1024;

    private final BodyInput body;
    private final Connection connection;
    private final HttpResponse.BodySubscriber<?> subscriber;
    private final Consumer<Boolean> done;
    /** {@code System.nanoTime()} by which the whole body must be in; 0: the reader sets the pace. */
    private long deadline;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition asked = lock.newCondition();
    private long demand;
    private boolean cancelled;
    /** Read to its end: a late cancel (a stream closed after the fact) must not touch the connection. */
    private boolean finished;

    private IllegalArgumentException badRequest;

    BodyFeed(BodyInput body, Connection connection, HttpResponse.BodySubscriber<?> subscriber, Consumer<Boolean> done) {
        this.body = body;
        this.connection = connection;
        this.subscriber = subscriber;
        this.done = done;
    }

    @Override
    public void request(long n) {
        lock.lock();
        try {
            if (n <= 0) {
                badRequest = new IllegalArgumentException("non-positive subscription request: " + n);
            } else {
                demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
            }
            asked.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void cancel() {
        lock.lock();
        try {
            if (finished) {
                return;
            }
            cancelled = true;
            asked.signalAll();
        } finally {
            lock.unlock();
        }
        connection.close();
    }

    /** Bounds the whole body by {@code nanos} ({@code System.nanoTime()}); before {@link #run()}, on its thread. */
    void within(long nanos) {
        deadline = nanos;
    }

    @Override
    public void run() {
        try {
            while (true) {
                if (!awaitDemand()) {
                    done.accept(false);
                    return;
                }
                byte[] buffer = new byte[next()];
                int n = connection.readBy(deadline, () -> body.read(buffer, 0, buffer.length)); // what is left
                if (n < 0) {
                    done.accept(finish() && body.complete());
                    subscriber.onComplete();
                    return;
                }
                subscriber.onNext(List.of(ByteBuffer.wrap(buffer, 0, n)));
            }
        } catch (IOException | RuntimeException e) {
            connection.close();
            done.accept(false);
            subscriber.onError(e);
        }
    }

    /** Marks the body read to its end; false if it was cancelled first (the connection is closed). */
    private boolean finish() {
        lock.lock();
        try {
            finished = !cancelled;
            return finished;
        } finally {
            lock.unlock();
        }
    }

    /** The next read's size: the whole rest of a small fixed body at once, else a chunk. */
    private int next() {
        long known = body.knownLength();
        return known >= 0 && known <= CHUNK ? (int) Math.max(1, known) : CHUNK;
    }

    /** Waits until the subscriber wants more; false once it cancelled or asked wrongly. */
    private boolean awaitDemand() throws IOException {
        lock.lock();
        try {
            while (demand == 0 && !cancelled && badRequest == null) {
                asked.awaitUninterruptibly();
            }
            if (badRequest != null) {
                throw new IOException(badRequest.getMessage(), badRequest);
            }
            if (cancelled) {
                return false;
            }
            if (demand != Long.MAX_VALUE) {
                demand--;
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
