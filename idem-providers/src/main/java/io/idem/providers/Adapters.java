package io.idem.providers;

import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.text.Redactor;
import io.idem.providers.fake.FakeAdapter;
import io.idem.providers.http.VendorHttpClients;
import java.net.http.HttpClient;
import java.util.Set;
import java.util.function.UnaryOperator;

/** Creates the adapter a provider's configuration names. */
public final class Adapters {
    /** The adapter types this build knows. */
    public static final Set<String> KNOWN = Set.of("fake", "fal", "replicate", "openai_images", "runware");

    private Adapters() {}

    /** With keys from {@code System.getenv} and only the adapter's own key and the shapes redacted. */
    public static ProviderAdapter create(ProviderSettings settings) {
        return create(settings, System::getenv, Redactor.shapesOnly());
    }

    /**
     * One HTTP client per provider: its own connection pool, its own connect timeout.
     *
     * @param environment where the adapter reads its key
     * @param redactor the node's secrets, hidden in everything the vendor says
     */
    public static ProviderAdapter create(
            ProviderSettings settings, UnaryOperator<String> environment, Redactor redactor) {
        HttpClient client = VendorHttpClients.forProvider(settings);
        ProviderAdapter adapter = switch (settings.adapter()) {
            case "fake" -> new FakeAdapter(settings, client, environment, redactor);
            case "fal" -> new io.idem.providers.fal.FalAdapter(settings, client, environment, redactor);
            case "replicate" ->
                new io.idem.providers.replicate.ReplicateAdapter(settings, client, environment, redactor);
            case "openai_images" ->
                new io.idem.providers.openai.OpenAiImagesAdapter(settings, client, environment, redactor);
            case "runware" -> new io.idem.providers.runware.RunwareAdapter(settings, client, environment, redactor);
            default ->
                throw new IllegalArgumentException("provider '" + settings.name() + "': unknown adapter '"
                        + settings.adapter() + "'; known: " + KNOWN);
        };
        return settings.poll() && settings.cancel() ? adapter : new LimitedAdapter(adapter, settings);
    }
}
