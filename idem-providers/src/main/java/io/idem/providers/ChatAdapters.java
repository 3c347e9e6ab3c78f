package io.idem.providers;

import io.idem.core.chat.ChatAdapter;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.text.Redactor;
import io.idem.providers.vendor.ChatAdapterFactory;
import io.idem.providers.vendor.ChatWiring;
import io.idem.providers.vendor.VendorDescriptor;
import java.util.Collection;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Creates the chat adapter a provider's configuration names, from its vendor's descriptor, beside
 * {@link Adapters} for jobs: a {@code fake} provider has both, the chat-only vendors only this one.
 */
public final class ChatAdapters {
    private ChatAdapters() {}

    /**
     * @param answersFile the {@code static} provider's answers (empty: the built-in demo answers)
     * @param vendorModels the vendor model ids the provider serves (Ollama's health checks them)
     * @param environment where the adapter reads its key
     * @param redactor the node's secrets, hidden in everything the vendor says
     * @throws IllegalArgumentException the adapter is not a vendor with a chat side
     */
    public static ChatAdapter create(
            ProviderSettings settings,
            Optional<String> answersFile,
            Collection<String> vendorModels,
            UnaryOperator<String> environment,
            Redactor redactor) {
        ChatAdapterFactory factory = Vendors.named(settings.adapter())
                .flatMap(VendorDescriptor::chat)
                .orElseThrow(() -> new IllegalArgumentException("provider '" + settings.name() + "': adapter '"
                        + settings.adapter() + "' has no chat side; known: " + Vendors.chatNames()));
        return factory.create(new ChatWiring(settings, answersFile, vendorModels, environment, redactor));
    }
}
