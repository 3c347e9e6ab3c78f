package io.idem.server.chaos;

import io.idem.server.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Submits the chaos jobs through the API node one by one, in random bursts, so that work keeps
 * arriving while workers die. Run on its own thread; read the counts after joining it.
 */
final class Submitter implements Runnable {
    private final TestServer api;
    private final JobMix mix;
    private final Random pauses;
    private final int jobs;
    private final List<String> refused = new ArrayList<>();
    private volatile int accepted;

    Submitter(TestServer api, JobMix mix, Random pauses, int jobs) {
        this.api = api;
        this.mix = mix;
        this.pauses = pauses;
        this.jobs = jobs;
    }

    @Override
    public void run() {
        for (int i = 0; i < jobs; i++) {
            TestServer.Reply reply = api.post("/v1/jobs", TestServer.ADMIN_KEY, mix.next(i));
            if (reply.status() == 202) {
                accepted++;
            } else {
                refused.add(reply.status() + " " + reply.raw());
            }
            // Bursts with pauses between them: a backlog builds, so kills find claimed jobs waiting
            // as well as calls in flight.
            ChildJvm.sleep(
                    Duration.ofMillis(pauses.nextInt(15) == 0 ? 500 + pauses.nextInt(1001) : pauses.nextInt(20)));
        }
    }

    int accepted() {
        return accepted;
    }

    List<String> refused() {
        return List.copyOf(refused);
    }
}
