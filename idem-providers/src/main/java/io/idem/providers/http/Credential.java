package io.idem.providers.http;

import io.idem.core.provider.ProviderSettings;
import java.net.http.HttpRequest;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A provider's API key, read from the environment variable its settings name (DESIGN §7: keys never
 * live in config files). The secret is never printed: {@link Bearer#toString()} redacts it and no
 * message here quotes it.
 */
public sealed interface Credential {
    /** The authorization schemes a key may be sent under. */
    java.util.regex.Pattern SCHEME = java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9-]{0,31}");

    /** The provider needs no key. */
    record None() implements Credential {}

    /** A key, sent as {@code Authorization: Bearer} unless the adapter names another scheme. */
    record Bearer(String secret) implements Credential {
        public Bearer {
            Objects.requireNonNull(secret, "secret");
        }

        @Override
        public String toString() {
            return "Bearer[redacted]";
        }
    }

    /** The key is configured but cannot be used; {@code reason} names the variable, never its value. */
    record Missing(String variable, String reason) implements Credential {}

    /** Reads the key named by {@code settings.apiKeyEnv()} through {@code environment} (e.g. {@code System::getenv}). */
    static Credential resolve(ProviderSettings settings, UnaryOperator<String> environment) {
        return fromVariable(settings.apiKeyEnv(), environment);
    }

    /** Reads the key in {@code name}, when one is named, through {@code environment}. */
    static Credential fromVariable(java.util.Optional<String> name, UnaryOperator<String> environment) {
        if (name.isEmpty()) {
            return new None();
        }
        String variable = name.get();
        String secret = environment.apply(variable);
        if (secret == null || secret.isBlank()) {
            return new Missing(variable, "environment variable " + variable + " is not set");
        }
        // A key with control characters would be refused by the HTTP client, whose message might
        // quote it; refuse it here instead, without quoting it.
        if (secret.strip().chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return new Missing(
                    variable, "environment variable " + variable + " holds characters not allowed in a header");
        }
        return new Bearer(secret.strip());
    }

    /** Adds the key to {@code request} as {@code Authorization: Bearer}, if there is one to add. */
    default HttpRequest.Builder applyTo(HttpRequest.Builder request) {
        return applyTo(request, "Bearer");
    }

    /**
     * Adds the key to {@code request} under another authorization scheme (fal wants {@code
     * Authorization: Key …}), if there is one to add.
     */
    default HttpRequest.Builder applyTo(HttpRequest.Builder request, String scheme) {
        if (!SCHEME.matcher(scheme).matches()) {
            throw new IllegalArgumentException("not an authorization scheme: '" + scheme + "'");
        }
        return switch (this) {
            case Bearer bearer -> request.header("Authorization", scheme + " " + bearer.secret());
            case None none -> request;
            case Missing missing -> throw new IllegalStateException("no usable key in " + missing.variable());
        };
    }
}
