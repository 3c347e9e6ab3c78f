package io.idem.server.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Worker-only Idem nodes, each in its own JVM, that can be SIGKILLed and restarted. Slot {@code i}
 * always logs to {@code worker-i.log}; each restart gets a fresh worker id ({@code worker-i.g}) so
 * the events show which incarnation held a lease. Used from one thread.
 */
final class WorkerFleet implements AutoCloseable {
    private static final Pattern READY = Pattern.compile("Idem is ready \\(worker only\\)");

    private final Map<String, String> env;
    private final Path config;
    private final Path logs;
    private final List<ChildJvm> slots = new ArrayList<>();
    private final List<Integer> generations = new ArrayList<>();
    private int kills;

    WorkerFleet(Map<String, String> env, Path config, Path logs) {
        this.env = env;
        this.config = config;
        this.logs = logs;
    }

    void start(int size) {
        for (int i = 0; i < size; i++) {
            slots.add(null);
            generations.add(0);
            launch(i);
        }
    }

    int size() {
        return slots.size();
    }

    /** Waits until every slot's current process says it is ready. */
    void awaitReady(Duration within) {
        slots.forEach(worker -> worker.awaitLine(READY, within));
    }

    /** Slots whose current process is alive and has said it is ready. */
    List<Integer> readySlots() {
        List<Integer> ready = new ArrayList<>();
        for (int i = 0; i < slots.size(); i++) {
            if (slots.get(i).alive() && slots.get(i).printed(READY)) {
                ready.add(i);
            }
        }
        return ready;
    }

    /** The worker id of slot {@code i}'s current process (its leases name it). */
    String workerId(int i) {
        return slots.get(i).name();
    }

    /** SIGKILLs slot {@code i}; returns the pid that died. */
    long kill(int i) {
        ChildJvm victim = slots.get(i);
        victim.kill();
        kills++;
        return victim.pid();
    }

    void restart(int i) {
        launch(i);
    }

    int kills() {
        return kills;
    }

    private void launch(int i) {
        int generation = generations.get(i) + 1;
        generations.set(i, generation);
        String id = "worker-" + i + "." + generation;
        Map<String, String> mine = new java.util.HashMap<>(env);
        mine.put("IDEM_WORKER_ID", id);
        mine.put("IDEM_DATA_DIR", logs.resolve("data-" + i).toString());
        slots.set(
                i,
                ChildJvm.start(
                        id,
                        List.of("serve", "--role", "worker", "--config", config.toString()),
                        mine,
                        logs.resolve("worker-" + i + ".log")));
    }

    /** Graceful stop of every live worker. */
    @Override
    public void close() {
        slots.stream().filter(w -> w != null).forEach(ChildJvm::close);
    }
}
