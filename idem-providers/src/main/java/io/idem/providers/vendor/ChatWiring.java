package io.idem.providers.vendor;

import io.idem.core.provider.ProviderSettings;
import io.idem.core.text.Redactor;
import io.idem.providers.http.VendorHttpClients;
import java.net.http.HttpClient;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What the node hands a chat provider's factory; each vendor takes what it needs.
 *
 * @param answersFile the static tier's answers (empty: the built-in demo answers)
 * @param vendorModels the vendor model ids the provider serves (Ollama's health checks them)
 * @param environment where the adapter reads its key
 * @param redactor the node's secrets, hidden in everything the vendor says
 */
public record ChatWiring(
        ProviderSettings settings,
        Optional<String> answersFile,
        Collection<String> vendorModels,
        UnaryOperator<String> environment,
        Redactor redactor) {

    public ChatWiring {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(answersFile, "answersFile");
        vendorModels = List.copyOf(vendorModels);
        Objects.requireNonNull(environment, "environment");
        Objects.requireNonNull(redactor, "redactor");
    }

    /** A new client of the provider's own (built only by the vendors that call out). */
    public HttpClient client() {
        return VendorHttpClients.forProvider(settings);
    }
}
