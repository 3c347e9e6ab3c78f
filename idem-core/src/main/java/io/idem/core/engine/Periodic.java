package io.idem.core.engine;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a task on its own virtual thread, first after {@code first}, then every {@code every}, until
 * closed. A failing run is logged and the next one goes ahead: a sweep that throws never stops the
 * sweeping. The one loop behind the lease sweeper, the reconciler, the health sentinel and the
 * purges.
 */
public final class Periodic implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Periodic.class);

    private final Thread thread;

    private Periodic(Thread thread) {
        this.thread = thread;
    }

    public static Periodic start(String name, Duration first, Duration every, Runnable task) {
        Thread thread = Thread.ofVirtual()
                .name("idem-" + name.replace(' ', '-'))
                .start(() -> {
                    Duration wait = first;
                    while (!Thread.currentThread().isInterrupted()) {
                        try {
                            Thread.sleep(wait);
                            task.run();
                        } catch (InterruptedException e) {
                            return;
                        } catch (RuntimeException e) {
                            log.error("{} failed; trying again in {} s", name, every.toSeconds(), e);
                        }
                        wait = every;
                    }
                });
        return new Periodic(thread);
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
