package io.idem.server.webhooks;

import io.idem.core.engine.Periodic;
import io.idem.core.spi.Outbox;
import io.idem.core.text.Redactor;
import io.idem.core.webhook.RetrySchedule;
import io.idem.core.webhook.WebhookDispatcher;
import io.idem.server.config.IdemConfig;
import io.idem.server.outbound.OutboundUrls;
import io.idem.server.outbound.Receivers;
import java.time.InstantSource;

/**
 * The node's webhook dispatcher: every node runs one, polling the shared outbox every {@code
 * webhooks.poll_millis}; claims make each delivery go out from one node at a time.
 */
public final class EventWebhooks {
    private EventWebhooks() {}

    /** Starts polling; closing it stops (a send in flight is interrupted and its claim runs out). */
    public static AutoCloseable start(
            IdemConfig.Webhooks settings,
            Outbox outbox,
            SigningSecrets secrets,
            Redactor redactor,
            String node,
            InstantSource clock) {
        var sender = new HttpWebhookSender(
                Receivers.client(),
                secrets,
                new OutboundUrls(settings.allowPrivateUrls()),
                redactor,
                settings.timeout(),
                clock);
        var dispatcher = new WebhookDispatcher(
                outbox,
                sender,
                new WebhookDispatcher.Settings(
                        settings.lease(),
                        settings.giveUpAfter(),
                        new RetrySchedule(settings.firstRetry(), RetrySchedule.LONGEST)),
                node,
                clock);
        return Periodic.start("webhooks", settings.poll(), settings.poll(), dispatcher::poll);
    }
}
