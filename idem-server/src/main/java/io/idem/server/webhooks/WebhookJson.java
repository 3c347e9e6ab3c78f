package io.idem.server.webhooks;

import io.idem.core.spi.WebhookSubscriptions;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The JSON of a subscription (never its secret) and of one entry of its delivery log. */
final class WebhookJson {
    private WebhookJson() {}

    static Map<String, Object> subscription(WebhookSubscriptions.Subscription s) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", s.id().toString());
        out.put("url", s.url());
        out.put("event_types", s.eventTypes());
        out.put("description", s.description().orElse(null));
        out.put("owner", s.owner());
        out.put("scope", s.allOwners() ? "all" : "owner");
        out.put("created_at", s.createdAt().toString());
        return out;
    }

    static Map<String, Object> delivery(WebhookSubscriptions.DeliveryRecord d) {
        var attempts = d.attempts();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", d.id().toString());
        out.put("event_id", "evt_" + d.eventId());
        out.put("event_type", d.eventType());
        out.put("status", d.status());
        out.put("attempts", attempts.count());
        out.put("last_status", attempts.lastStatus().orElse(null));
        out.put("last_error", attempts.lastError().orElse(null));
        out.put("last_attempt_at", text(attempts.lastAt()));
        out.put("next_attempt_at", text(attempts.nextAt()));
        out.put("give_up_at", attempts.giveUpAt().toString());
        out.put("created_at", d.createdAt().toString());
        out.put("finished_at", text(d.finishedAt()));
        return out;
    }

    private static String text(Optional<Instant> at) {
        return at.map(Instant::toString).orElse(null);
    }
}
