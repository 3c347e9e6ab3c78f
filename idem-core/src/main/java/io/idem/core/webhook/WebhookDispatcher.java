package io.idem.core.webhook;

import io.idem.core.spi.Outbox;
import io.idem.core.spi.WebhookSender;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the outbox on, on one node; every node runs one and calls {@link #poll()} every second or
 * so. A poll fans new events out to their deliveries, then claims the deliveries that are due and
 * sends them, all at once, each on its own virtual thread, and records what each receiver said: a
 * failure is due again on the {@link RetrySchedule}, or given up. A claim lasts {@code lease}
 * (longer than a send may take); a node that dies holding one leaves it to be taken over when it
 * ends, so every delivery is sent at least once, and once while the nodes stay up. Not
 * thread-safe: one poller.
 */
public final class WebhookDispatcher {
    private static final Logger log = LoggerFactory.getLogger(WebhookDispatcher.class);
    static final int FAN_OUT_BATCH = 500;
    static final int SEND_BATCH = 64;
    /** Claims per poll at most, so one poll of a long backlog still ends. */
    private static final int MAX_ROUNDS = 16;

    private final Outbox outbox;
    private final WebhookSender sender;
    private final Settings settings;
    private final String node;
    private final InstantSource clock;

    /**
     * How deliveries are sent.
     *
     * @param lease how long a claim keeps a delivery from other nodes (longer than one send)
     * @param giveUpAfter how long after an event a delivery may still be tried
     */
    public record Settings(Duration lease, Duration giveUpAfter, RetrySchedule retries) {}

    public WebhookDispatcher(Outbox outbox, WebhookSender sender, Settings settings, String node, InstantSource clock) {
        this.outbox = outbox;
        this.sender = sender;
        this.settings = settings;
        this.node = node;
        this.clock = clock;
    }

    /** Fans out and sends what is due; never throws. */
    public void poll() {
        try {
            int taken;
            do {
                Instant now = clock.instant();
                taken = outbox.fanOut(FAN_OUT_BATCH, now, now.plus(settings.giveUpAfter()));
            } while (taken == FAN_OUT_BATCH);
            List<Delivery> due;
            int rounds = 0;
            do {
                due = outbox.claim(node, SEND_BATCH, clock.instant(), settings.lease());
                sendAll(due);
            } while (due.size() == SEND_BATCH && ++rounds < MAX_ROUNDS);
        } catch (RuntimeException e) {
            log.warn("webhook poll failed; the next poll tries again", e);
        }
    }

    private void sendAll(List<Delivery> due) {
        if (due.isEmpty()) {
            return;
        }
        try (ExecutorService sends = Executors.newVirtualThreadPerTaskExecutor()) {
            due.forEach(delivery -> sends.submit(() -> deliver(delivery)));
        }
    }

    private void deliver(Delivery delivery) {
        try {
            WebhookSender.Result result = sender.send(delivery);
            Instant now = clock.instant();
            switch (result) {
                case WebhookSender.Result.Taken taken -> outbox.delivered(delivery, taken.status(), now);
                case WebhookSender.Result.Refused refused -> {
                    var retryAt = settings.retries().next(delivery, now);
                    outbox.failed(delivery, refused.status(), refused.why(), now, retryAt);
                    log.warn(
                            "webhook delivery {} ({}) attempt {} not taken: {}; {}",
                            delivery.id(),
                            delivery.eventType(),
                            delivery.attempt(),
                            refused.why(),
                            retryAt.map(at -> "next attempt at " + at).orElse("given up"));
                }
            }
        } catch (RuntimeException e) {
            log.warn(
                    "webhook delivery {} could not be recorded; its claim runs out and it is sent again",
                    delivery.id(),
                    e);
        }
    }
}
