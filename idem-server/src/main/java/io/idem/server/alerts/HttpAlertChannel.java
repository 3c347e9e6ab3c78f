package io.idem.server.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.alert.Alert;
import io.idem.core.spi.AlertChannel;
import io.idem.core.text.Redactor;
import io.idem.server.config.AlertSettings;
import io.idem.server.http.Json;
import io.idem.server.outbound.Receivers;
import io.idem.server.outbound.WebhookSignature;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;

/**
 * An alert channel over HTTP: a JSON POST whose body and address depend on the channel (a generic
 * webhook, a Slack incoming webhook, a Telegram bot). Whatever the receiver says back passes through
 * the node's redactor, and a refusal names only the status and the receiver's own words, never the
 * URL or token. Thread-safe.
 */
final class HttpAlertChannel implements AlertChannel {
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final AlertSettings.Channel settings;
    private final HttpClient client;
    private final Redactor redactor;
    private final WebhookSignature signature;

    HttpAlertChannel(AlertSettings.Channel settings, HttpClient client, Redactor redactor, InstantSource clock) {
        this.settings = settings;
        this.client = client;
        this.redactor = redactor;
        this.signature =
                settings instanceof AlertSettings.Webhook w && w.secret().isPresent()
                        ? new WebhookSignature(w.secret().get(), clock)
                        : null;
    }

    @Override
    public String name() {
        return settings.name();
    }

    @Override
    public Delivery send(Alert alert) {
        byte[] body = body(alert);
        HttpRequest.Builder request = HttpRequest.newBuilder(address())
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (signature != null) {
            signature.headers(alert.key(), body).forEach(request::header);
        }
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return verdict(response.statusCode(), response.body());
        } catch (IOException e) {
            return new Delivery.Refused(Receivers.noAnswer(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Delivery.Refused("interrupted");
        }
    }

    private URI address() {
        return switch (settings) {
            case AlertSettings.Webhook w -> w.url();
            case AlertSettings.Slack s -> s.webhookUrl();
            case AlertSettings.Telegram t ->
                URI.create(t.baseUrl().toString().replaceAll("/+$", "") + "/bot" + t.botToken() + "/sendMessage");
        };
    }

    private byte[] body(Alert alert) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        switch (settings) {
            case AlertSettings.Webhook w -> {
                body.put("type", "alert");
                body.put("id", alert.key());
                body.put("kind", alert.kind());
                body.put("provider", alert.provider());
                body.put("text", alert.text());
                body.put("at", alert.at().toString());
            }
            case AlertSettings.Slack s -> body.put("text", "[Idem] " + alert.text());
            case AlertSettings.Telegram t -> {
                body.put("chat_id", t.chatId());
                body.put("text", "[Idem] " + alert.text());
            }
        }
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** 2xx is taken, except a Telegram answer that says {@code "ok": false}. */
    private Delivery verdict(int status, String body) {
        String said = Receivers.said(redactor, body);
        if (status / 100 != 2) {
            return new Delivery.Refused(Receivers.refusal(status, said));
        }
        if (settings instanceof AlertSettings.Telegram) {
            JsonNode answer = parse(body);
            if (!answer.path("ok").asBoolean(false)) {
                return new Delivery.Refused("Telegram said not ok: " + said);
            }
        }
        return new Delivery.Taken();
    }

    private static JsonNode parse(String body) {
        try {
            return Json.MAPPER.readTree(body == null ? "" : body);
        } catch (IOException e) {
            return Json.MAPPER.createObjectNode();
        }
    }

    /** The channels of an {@code alerts:} block, on one shared client. */
    static java.util.List<AlertChannel> of(AlertSettings alerts, Redactor redactor, InstantSource clock) {
        HttpClient client = Receivers.client();
        return alerts.channels().stream()
                .<AlertChannel>map(c -> new HttpAlertChannel(c, client, redactor, clock))
                .toList();
    }
}
