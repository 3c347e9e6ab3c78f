package io.idem.server.chaos;

import io.idem.core.engine.Reconciler;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs reconcile sweeps from the (never killed) API node while the chaos goes on, the way a node's
 * own reconcile loop would. Counts the jobs it moved.
 */
final class ReconcileDriver implements AutoCloseable {
    private final Reconciler reconciler;
    private final Duration every;
    private final AtomicInteger moved = new AtomicInteger();
    private volatile boolean stopped;
    private Thread thread;

    ReconcileDriver(Reconciler reconciler, Duration every) {
        this.reconciler = reconciler;
        this.every = every;
    }

    void start() {
        thread = Thread.ofPlatform().name("chaos-reconcile").daemon().start(() -> {
            while (!stopped) {
                try {
                    moved.addAndGet(reconciler.sweepOnce());
                } catch (RuntimeException e) {
                    System.out.println("[chaos] reconcile sweep failed: " + e);
                }
                try {
                    Thread.sleep(every);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    int moved() {
        return moved.get();
    }

    /** Stops after the sweep in progress (not interrupted: a torn sweep would leave its holds). */
    @Override
    public void close() {
        stopped = true;
        if (thread != null) {
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
