package io.idem.providers.chat;

import io.idem.core.chat.ChatAdapter;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.text.Redactor;
import io.idem.providers.http.VendorHttpClients;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Creates the chat adapter a provider's configuration names, beside {@code Adapters} for jobs: a
 * {@code fake} provider has both, the others here speak chat only.
 */
public final class ChatAdapters {
    /** Adapter types that serve chat only (they have no job adapter). */
    public static final Set<String> CHAT_ONLY = Set.of("openai_chat", "ollama", "static");
    /** Every adapter type with a chat side. */
    public static final Set<String> KNOWN = Set.of("fake", "openai_chat", "ollama", "static");

    private ChatAdapters() {}

    /**
     * @param answersFile the {@code static} provider's answers (empty: the built-in demo answers)
     * @param vendorModels the vendor model ids the provider serves (Ollama's health checks them)
     * @param environment where the adapter reads its key
     * @param redactor the node's secrets, hidden in everything the vendor says
     */
    public static ChatAdapter create(
            ProviderSettings settings,
            Optional<String> answersFile,
            Collection<String> vendorModels,
            UnaryOperator<String> environment,
            Redactor redactor) {
        return switch (settings.adapter()) {
            case "static" ->
                new StaticChatAdapter(
                        answersFile.map(Path::of).map(StaticAnswers::read).orElseGet(StaticAnswers::demo));
            case "fake" -> new FakeChatAdapter(settings, client(settings), environment, redactor);
            case "openai_chat" -> new OpenAiChatAdapter(settings, client(settings), environment, redactor);
            case "ollama" -> new OllamaChatAdapter(settings, client(settings), vendorModels, environment, redactor);
            default ->
                throw new IllegalArgumentException("provider '" + settings.name() + "': adapter '" + settings.adapter()
                        + "' has no chat side; known: " + KNOWN);
        };
    }

    /** One HTTP client per provider: its own connection pool, its own connect timeout. */
    private static HttpClient client(ProviderSettings settings) {
        return VendorHttpClients.forProvider(settings);
    }
}
