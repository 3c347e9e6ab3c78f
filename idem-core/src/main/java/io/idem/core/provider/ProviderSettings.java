package io.idem.core.provider;

import io.idem.core.pricing.PricingModel;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The validated configuration of one provider (DESIGN §7). The credential itself is never held
 * here: only the name of the environment variable that carries it.
 *
 * @param adapter the adapter type, e.g. {@code fake}, {@code openai_images}
 * @param endpoint where and how it is reached
 * @param defaultModel the vendor model id used when a request names none
 * @param models Idem model name → vendor model id
 * @param pricing how the provider bills ({@code cost_per_image_usd}: per image), for the expected cost
 *     written ahead, the audit and the budgets
 * @param capabilities kinds, sizes, n, jurisdictions, poll, cancel and simulate
 * @param dailyBudgetUsd spend per UTC day past which the provider is skipped
 */
public record ProviderSettings(
        String name,
        String adapter,
        Endpoint endpoint,
        String defaultModel,
        Map<String, String> models,
        PricingModel pricing,
        boolean enabled,
        Capabilities capabilities,
        Optional<BigDecimal> dailyBudgetUsd) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,62}");

    /** Whether {@code name} is a well-formed provider name (lower-case letters, digits, '-', '_'). */
    public static boolean validName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    public ProviderSettings {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "provider name '" + name + "' must be lower-case letters, digits, '-' or '_' (at most 63)");
        }
        Objects.requireNonNull(adapter, "adapter");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(defaultModel, "defaultModel");
        models = Map.copyOf(models);
        if (endpoint.connectTimeout().isNegative() || endpoint.connectTimeout().isZero()) {
            throw new IllegalArgumentException(
                    "provider '" + name + "': connect timeout must be positive, was " + endpoint.connectTimeout());
        }
        Objects.requireNonNull(pricing, "pricing");
        Objects.requireNonNull(capabilities, "capabilities");
        Objects.requireNonNull(dailyBudgetUsd, "dailyBudgetUsd");
        if (dailyBudgetUsd.isPresent() && dailyBudgetUsd.get().signum() <= 0) {
            throw new IllegalArgumentException(
                    "provider '" + name + "': daily budget must be positive, was " + dailyBudgetUsd.get());
        }
    }

    /**
     * A provider priced per image that can be polled and canceled (what a vendor's API usually
     * offers) and takes no {@code simulate} directives.
     */
    public ProviderSettings(
            String name,
            String adapter,
            URI baseUrl,
            Optional<String> apiKeyEnv,
            String defaultModel,
            Map<String, String> models,
            Duration connectTimeout,
            BigDecimal costPerImageUsd,
            boolean enabled) {
        this(
                name,
                adapter,
                new Endpoint(baseUrl, apiKeyEnv, connectTimeout),
                defaultModel,
                models,
                new PricingModel.PerImage(costPerImageUsd),
                enabled,
                Capabilities.ANY,
                Optional.empty());
    }

    /**
     * Where a provider is reached.
     *
     * @param apiKeyEnv the environment variable that carries its credential (never the credential)
     * @param usageKeyEnv the variable holding the key that reads the vendor's usage or cost report,
     *     where it needs another than the calls' (OpenAI's costs report needs an admin key)
     * @param expectContinue how the provider's POSTs ask for {@code 100 Continue}
     * @param secretKeyEnv the variable holding a second secret, for a vendor that signs its own
     *     tokens from a key pair (Kling: {@code api_key_env} holds the access key, this the secret key)
     */
    public record Endpoint(
            URI baseUrl,
            Optional<String> apiKeyEnv,
            Duration connectTimeout,
            Optional<String> usageKeyEnv,
            ExpectContinue expectContinue,
            Optional<String> secretKeyEnv) {
        public Endpoint {
            Objects.requireNonNull(baseUrl, "baseUrl");
            Objects.requireNonNull(apiKeyEnv, "apiKeyEnv");
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            Objects.requireNonNull(usageKeyEnv, "usageKeyEnv");
            Objects.requireNonNull(expectContinue, "expectContinue");
            Objects.requireNonNull(secretKeyEnv, "secretKeyEnv");
        }

        /** Without a second secret. */
        public Endpoint(
                URI baseUrl,
                Optional<String> apiKeyEnv,
                Duration connectTimeout,
                Optional<String> usageKeyEnv,
                ExpectContinue expectContinue) {
            this(baseUrl, apiKeyEnv, connectTimeout, usageKeyEnv, expectContinue, Optional.empty());
        }

        public Endpoint(
                URI baseUrl, Optional<String> apiKeyEnv, Duration connectTimeout, Optional<String> usageKeyEnv) {
            this(baseUrl, apiKeyEnv, connectTimeout, usageKeyEnv, ExpectContinue.DEFAULT);
        }

        public Endpoint(URI baseUrl, Optional<String> apiKeyEnv, Duration connectTimeout) {
            this(baseUrl, apiKeyEnv, connectTimeout, Optional.empty());
        }
    }

    /**
     * How a provider's POSTs use {@code Expect: 100-continue}. A job's POST always asks for it:
     * whether its body left decides whether the attempt may be billed. A chat call asks only where
     * {@code chat} is on: chat fails over on an unconfirmed attempt anyway, so the saved round trip
     * is worth more there (docs/benchmarks.md).
     *
     * @param timeout how long a head waits for {@code 100 Continue} before the body is sent anyway
     *     ({@code http.expect_continue_timeout_ms})
     * @param chat whether chat calls ask for it too ({@code chat_expect_continue}); empty: the
     *     vendor's own default (on only for the fake vendor, whose simulated refusals show what it
     *     tells apart)
     */
    public record ExpectContinue(Duration timeout, Optional<Boolean> chat) {
        /** A one-second wait, as curl's, and chat calls as their vendor's default has them. */
        public static final ExpectContinue DEFAULT = new ExpectContinue(Duration.ofSeconds(1), Optional.empty());

        public ExpectContinue {
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(chat, "chat");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the wait for 100 Continue must be positive, was " + timeout);
            }
        }
    }

    public URI baseUrl() {
        return endpoint.baseUrl();
    }

    public Optional<String> apiKeyEnv() {
        return endpoint.apiKeyEnv();
    }

    public Duration connectTimeout() {
        return endpoint.connectTimeout();
    }

    public Optional<String> usageKeyEnv() {
        return endpoint.usageKeyEnv();
    }

    public ExpectContinue expectContinue() {
        return endpoint.expectContinue();
    }

    public Optional<String> secretKeyEnv() {
        return endpoint.secretKeyEnv();
    }

    public boolean poll() {
        return capabilities.poll();
    }

    public boolean cancel() {
        return capabilities.cancel();
    }

    /** The same provider reached at another address (an in-process fake's real port). */
    public ProviderSettings withBaseUrl(URI url) {
        return new ProviderSettings(
                name,
                adapter,
                new Endpoint(
                        url,
                        endpoint.apiKeyEnv(),
                        endpoint.connectTimeout(),
                        endpoint.usageKeyEnv(),
                        endpoint.expectContinue(),
                        endpoint.secretKeyEnv()),
                defaultModel,
                models,
                pricing,
                enabled,
                capabilities,
                dailyBudgetUsd);
    }

    /** Whether this provider serves the Idem model name {@code model}. */
    public boolean offers(String model) {
        return models.containsKey(model) || defaultModel.equals(model);
    }

    /** The vendor model id for an Idem model name ({@code null}: the default). */
    public String vendorModel(String model) {
        if (model == null) {
            return defaultModel;
        }
        return models.getOrDefault(model, model);
    }

    /** Whether it takes fault-injection directives (its vendor's descriptor says; only the fake vendor does). */
    public boolean acceptsSimulate() {
        return capabilities.simulate();
    }
}
