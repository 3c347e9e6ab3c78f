package io.idem.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Reads the {@code alerts:} block (or {@code ALERTS_JSON}); every mistake names its setting. */
final class AlertsReader {
    private static final Set<String> FIELDS = Set.of("quiet_period_seconds", "channels", "rules");
    private static final Set<String> TYPES = Set.of("webhook", "slack", "telegram");

    private AlertsReader() {}

    static AlertSettings read(JsonNode node) {
        if (node == null || node.isNull()) {
            return AlertSettings.NONE;
        }
        if (!node.isObject()) {
            throw new ConfigException("alerts must be a mapping, was " + node.getNodeType());
        }
        node.fieldNames().forEachRemaining(field -> {
            if (!FIELDS.contains(field)) {
                throw new ConfigException("alerts." + field + " is not a known setting; known: " + FIELDS);
            }
        });
        JsonNode quiet = node.path("quiet_period_seconds");
        if (!quiet.isMissingNode() && (!quiet.canConvertToInt() || quiet.asInt() < 0 || quiet.asInt() > 86_400)) {
            throw new ConfigException("alerts.quiet_period_seconds must be 0..86400, was " + quiet);
        }
        JsonNode channels = node.path("channels");
        if (!channels.isMissingNode() && !channels.isArray()) {
            throw new ConfigException("alerts.channels must be a list");
        }
        List<AlertSettings.Channel> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < channels.size(); i++) {
            AlertSettings.Channel channel = channel(channels.get(i), "alerts.channels[" + i + "]");
            if (!names.add(channel.name())) {
                throw new ConfigException("alerts.channels: the name '" + channel.name() + "' is used twice");
            }
            out.add(channel);
        }
        return new AlertSettings(
                Duration.ofSeconds(quiet.isMissingNode() ? 60 : quiet.asInt()),
                out,
                AlertRulesReader.read(node.path("rules")));
    }

    private static AlertSettings.Channel channel(JsonNode node, String where) {
        String type = node.path("type").asText("");
        if (!TYPES.contains(type)) {
            throw new ConfigException(where + ".type must be one of " + TYPES + ", was '" + type + "'");
        }
        String name = node.path("name").asText(type);
        return switch (type) {
            case "webhook" ->
                new AlertSettings.Webhook(
                        name, url(node, "url", where), Optional.ofNullable(text(node, "secret", where, false)));
            case "slack" -> new AlertSettings.Slack(name, url(node, "webhook_url", where));
            default ->
                new AlertSettings.Telegram(
                        name,
                        node.has("base_url") ? url(node, "base_url", where) : URI.create("https://api.telegram.org"),
                        text(node, "bot_token", where, true),
                        text(node, "chat_id", where, true));
        };
    }

    private static URI url(JsonNode node, String field, String where) {
        String raw = text(node, field, where, true);
        try {
            URI uri = new URI(raw);
            if (!"https".equals(uri.getScheme()) && !"http".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new ConfigException(where + "." + field + " must be an http(s) URL");
            }
            return uri;
        } catch (java.net.URISyntaxException e) {
            // never quote it: the URL may be the credential
            throw new ConfigException(where + "." + field + " is not a valid URL");
        }
    }

    private static String text(JsonNode node, String field, String where, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull() || value.asText().isBlank()) {
            if (required) {
                throw new ConfigException(where + "." + field + " is required");
            }
            return null;
        }
        if (!value.isValueNode()) {
            throw new ConfigException(where + "." + field + " must be a single value");
        }
        return value.asText();
    }
}
