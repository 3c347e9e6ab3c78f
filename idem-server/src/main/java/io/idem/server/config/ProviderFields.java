package io.idem.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.provider.ProviderSettings;
import io.idem.providers.Vendors;
import io.idem.providers.vendor.VendorDescriptor;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The settings every provider entry shares, read the same way for job and chat-only providers: the
 * vendor it names, where it is reached, its key variable, its connect timeout, its switches and its
 * daily budget. A setting left out takes the vendor's default from its descriptor.
 */
final class ProviderFields {
    /** The setting naming a key-pair vendor's second secret. */
    static final String SECRET_KEY_ENV = "secret_key_env";

    private ProviderFields() {}

    /** The vendor {@code adapter} names; an unknown one is refused with the known names. */
    static VendorDescriptor vendor(String where, String adapter) {
        return Vendors.named(adapter)
                .orElseThrow(() -> new ConfigException(where + ".adapter: unknown adapter '" + adapter + "'; known: "
                        + Vendors.jobNames() + " (chat only: " + Vendors.chatOnlyNames() + ")"));
    }

    /** {@code base_url}, else the vendor's default (which its environment variable may replace). */
    static URI baseUrl(JsonNode p, String where, VendorDescriptor vendor, Map<String, String> env) {
        String baseUrl = Optional.ofNullable(text(p, "base_url"))
                .orElseGet(() -> vendor.defaults().baseUrl(env::get));
        try {
            URI uri = URI.create(baseUrl);
            if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                throw new IllegalArgumentException("not an http(s) URL");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    where + ".base_url must be an http(s) URL, was '" + IdemConfig.redactUrl(baseUrl) + "'");
        }
    }

    /** {@code api_key_env}, else the variable the vendor's own tools read. */
    static Optional<String> keyVariable(JsonNode p, VendorDescriptor vendor) {
        return Optional.ofNullable(text(p, "api_key_env"))
                .or(() -> vendor.defaults().keyVariable());
    }

    /**
     * {@code secret_key_env}, else the vendor's default second secret: only for a vendor that signs
     * its tokens from a key pair (its descriptor names a default).
     */
    static Optional<String> secretVariable(JsonNode p, String where, VendorDescriptor vendor) {
        Optional<String> named = Optional.ofNullable(text(p, SECRET_KEY_ENV));
        if (named.isPresent() && vendor.defaults().secretVariable().isEmpty()) {
            throw new ConfigException(where + "." + SECRET_KEY_ENV + " is only for adapters that sign with a key pair");
        }
        return named.or(() -> vendor.defaults().secretVariable());
    }

    /** {@code connect_timeout_ms}: 1..60000, default 2000. */
    static Duration connectTimeout(JsonNode p, String where) {
        long connectMs =
                p.has("connect_timeout_ms") ? p.get("connect_timeout_ms").asLong(-1) : 2000;
        if (connectMs < 1 || connectMs > 60_000) {
            throw new ConfigException(
                    where + ".connect_timeout_ms must be 1..60000, was " + p.get("connect_timeout_ms"));
        }
        return Duration.ofMillis(connectMs);
    }

    /**
     * How the provider's POSTs use {@code Expect: 100-continue}: the node's wait ({@code
     * http.expect_continue_timeout_ms}) and {@code chat_expect_continue}, true or false (absent:
     * the vendor's default).
     */
    static ProviderSettings.ExpectContinue expectContinue(JsonNode p, String where, Duration wait) {
        JsonNode value = p.get("chat_expect_continue");
        if (value == null || value.isNull()) {
            return new ProviderSettings.ExpectContinue(wait, Optional.empty());
        }
        if (!value.isBoolean()) {
            throw new ConfigException(where + ".chat_expect_continue must be true or false, was " + value);
        }
        return new ProviderSettings.ExpectContinue(wait, Optional.of(value.asBoolean()));
    }

    /** A switch that is on unless set to {@code false}. */
    static boolean flag(JsonNode p, String where, String field) {
        JsonNode value = p.get(field);
        if (value == null || value.isNull()) {
            return true;
        }
        if (!value.isBoolean()) {
            throw new ConfigException(where + "." + field + " must be true or false, was " + value);
        }
        return value.asBoolean();
    }

    /** {@code daily_budget_usd}: a positive number, or none. */
    static Optional<BigDecimal> dailyBudget(JsonNode p, String where) {
        JsonNode node = p.get("daily_budget_usd");
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        try {
            BigDecimal value = new BigDecimal(node.asText());
            if (value.signum() <= 0) {
                throw new NumberFormatException();
            }
            return Optional.of(value);
        } catch (NumberFormatException e) {
            throw new ConfigException(where + ".daily_budget_usd must be a positive number, was " + node);
        }
    }

    /** The text of {@code field}, or {@code null} when it is absent or null. */
    static String text(JsonNode p, String field) {
        JsonNode value = p.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
