package io.idem.providers.vendor;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What a provider of one vendor uses where its configuration is silent.
 *
 * @param baseUrl the vendor's address when {@code base_url} is not given
 * @param baseUrlVariable an environment variable that, when set, replaces {@code baseUrl} (the
 *     vendor's own tools read it: {@code OPENAI_BASE_URL})
 * @param keyVariable the variable holding the key when {@code api_key_env} is not given (the one
 *     the vendor's own tools read)
 * @param model the vendor model id used when neither the request nor {@code model} names one;
 *     empty: {@code model} is required
 * @param inProcess without a {@code base_url} the node runs this vendor itself, on loopback (the
 *     fake vendor of the demo)
 * @param secretVariable the variable holding a second secret when {@code secret_key_env} is not
 *     given (a vendor that signs tokens from a key pair); empty for a vendor with one key
 */
public record VendorDefaults(
        URI baseUrl,
        Optional<String> baseUrlVariable,
        Optional<String> keyVariable,
        Optional<String> model,
        boolean inProcess,
        Optional<String> secretVariable) {

    public VendorDefaults {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(baseUrlVariable, "baseUrlVariable");
        Objects.requireNonNull(keyVariable, "keyVariable");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(secretVariable, "secretVariable");
    }

    /** A vendor with one key. */
    public VendorDefaults(
            URI baseUrl,
            Optional<String> baseUrlVariable,
            Optional<String> keyVariable,
            Optional<String> model,
            boolean inProcess) {
        this(baseUrl, baseUrlVariable, keyVariable, model, inProcess, Optional.empty());
    }

    /** A remote vendor at {@code baseUrl} whose key is in {@code keyVariable}. */
    public static VendorDefaults remote(URI baseUrl, String keyVariable, Optional<String> model) {
        return new VendorDefaults(baseUrl, Optional.empty(), Optional.of(keyVariable), model, false);
    }

    /** A remote vendor whose tokens are signed from a key pair: access key and secret key variables. */
    public static VendorDefaults keyPair(
            URI baseUrl, String accessKeyVariable, String secretKeyVariable, Optional<String> model) {
        return new VendorDefaults(
                baseUrl,
                Optional.empty(),
                Optional.of(accessKeyVariable),
                model,
                false,
                Optional.of(secretKeyVariable));
    }

    /**
     * The base URL a provider without {@code base_url} uses, given the node's environment: as text,
     * because a value from the environment is checked like one from the file.
     */
    public String baseUrl(UnaryOperator<String> environment) {
        return baseUrlVariable.map(environment).orElse(baseUrl.toString());
    }
}
