package io.idem.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code moderation:} block: which moderator checks results before they are delivered, and on
 * which lanes besides the adult ones (always moderated once a moderator is configured, closed while
 * none is). {@code adapter}: {@code openai_moderation} (OpenAI's moderations endpoint) or {@code
 * http} (a hook of your own). Immutable.
 *
 * @param keyEnv the variable holding the moderator's key (read at start, redacted everywhere)
 */
public record ModerationSettings(
        Optional<String> adapter, URI url, Optional<String> keyEnv, String model, Set<String> lanes, Duration timeout) {
    public static final String OPENAI = "openai_moderation";
    public static final String HTTP = "http";
    private static final URI OPENAI_URL = URI.create("https://api.openai.com/v1/moderations");
    private static final Set<String> FIELDS = Set.of("adapter", "url", "api_key_env", "model", "lanes", "timeout_ms");

    /** No moderator: adult lanes stay closed. */
    public static final ModerationSettings NONE = new ModerationSettings(
            Optional.empty(), OPENAI_URL, Optional.empty(), "", Set.of(), Duration.ofSeconds(10));

    public ModerationSettings {
        lanes = Set.copyOf(lanes);
    }

    public boolean configured() {
        return adapter.isPresent();
    }

    /** Reads the block ({@code null}: none); refuses unknown fields and lanes that do not exist. */
    static ModerationSettings read(JsonNode node, Set<String> knownLanes) {
        if (node == null || node.isNull()) {
            return NONE;
        }
        if (!node.isObject()) {
            throw new ConfigException("moderation must be a mapping, was " + node);
        }
        node.fieldNames().forEachRemaining(field -> {
            if (!FIELDS.contains(field)) {
                throw new ConfigException("unknown setting 'moderation." + field + "'"
                        + Nearest.of(field, FIELDS)
                                .map(n -> "; did you mean 'moderation." + n + "'?")
                                .orElse(""));
            }
        });
        String adapter = node.path("adapter").asText("");
        if (!adapter.equals(OPENAI) && !adapter.equals(HTTP)) {
            throw new ConfigException(
                    "moderation.adapter must be " + OPENAI + " or " + HTTP + ", was '" + adapter + "'");
        }
        URI url = node.hasNonNull("url") ? url(node.get("url").asText()) : adapter.equals(OPENAI) ? OPENAI_URL : null;
        if (url == null) {
            throw new ConfigException("moderation.url is required for the http adapter");
        }
        Set<String> lanes = new LinkedHashSet<>();
        node.path("lanes").forEach(lane -> lanes.add(lane.asText()));
        for (String lane : lanes) {
            if (!knownLanes.contains(lane)) {
                throw new ConfigException("moderation.lanes names lane '" + lane + "', which is not configured");
            }
        }
        int timeout = node.path("timeout_ms").asInt(10_000);
        if (timeout < 100 || timeout > 120_000) {
            throw new ConfigException("moderation.timeout_ms must be 100..120000, was " + timeout);
        }
        return new ModerationSettings(
                Optional.of(adapter),
                url,
                Optional.ofNullable(
                        node.hasNonNull("api_key_env") ? node.get("api_key_env").asText() : null),
                node.path("model").asText("omni-moderation-latest"),
                lanes,
                Duration.ofMillis(timeout));
    }

    private static URI url(String text) {
        try {
            URI uri = URI.create(text);
            if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                throw new IllegalArgumentException();
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new ConfigException("moderation.url must be an http(s) URL");
        }
    }

    /** The moderator's key from {@code env}, where the block names a variable that is set. */
    Optional<String> key(Map<String, String> env) {
        return keyEnv.map(env::get).filter(v -> !v.isBlank());
    }
}
