package io.idem.server.config;

import io.idem.core.alert.AlertThresholds;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code alerts:} block: the quiet period and the channels alerts go to. Webhook URLs (Slack's
 * carry their token) and bot tokens are secrets: they are redacted everywhere and never printed.
 *
 * @param quiet how long a breaker may stay open, or a threshold rule hold, before it is an alert
 *     (a flap inside it is only an event)
 * @param rules the threshold rules ({@code alerts.rules})
 */
public record AlertSettings(Duration quiet, List<Channel> channels, AlertThresholds rules) {
    public static final AlertSettings NONE =
            new AlertSettings(Duration.ofSeconds(60), List.of(), AlertThresholds.DEFAULTS);

    public AlertSettings {
        Objects.requireNonNull(quiet, "quiet");
        channels = List.copyOf(channels);
        Objects.requireNonNull(rules, "rules");
    }

    /** One channel; its {@code name} is unique in the block (the delivery ledger keys on it). */
    public sealed interface Channel {
        String name();

        /** The values that must never be shown. */
        List<String> secrets();
    }

    /**
     * A JSON POST to any URL, signed Standard-Webhooks style when a {@code secret} is given.
     *
     * @param secret the signing key ({@code whsec_…}, base64 after the prefix)
     */
    public record Webhook(String name, URI url, Optional<String> secret) implements Channel {
        @Override
        public List<String> secrets() {
            return secret.isPresent() ? List.of(url.toString(), secret.get()) : List.of(url.toString());
        }
    }

    /** A Slack incoming webhook (its URL is the credential). */
    public record Slack(String name, URI webhookUrl) implements Channel {
        @Override
        public List<String> secrets() {
            return List.of(webhookUrl.toString());
        }
    }

    /** A Telegram bot's {@code sendMessage} to one chat; {@code baseUrl} is {@code https://api.telegram.org}. */
    public record Telegram(String name, URI baseUrl, String botToken, String chatId) implements Channel {
        @Override
        public List<String> secrets() {
            return List.of(botToken);
        }
    }
}
