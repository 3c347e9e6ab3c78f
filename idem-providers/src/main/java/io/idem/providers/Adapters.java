package io.idem.providers;

import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.ProviderAdapter;
import io.idem.providers.fake.FakeAdapter;
import java.net.http.HttpClient;
import java.util.Set;
import java.util.concurrent.Executors;

/** Creates the adapter a provider's configuration names. */
public final class Adapters {
    /** The adapter types this build knows. */
    public static final Set<String> KNOWN = Set.of("fake", "fal", "replicate", "openai_images", "runware");

    private Adapters() {}

    /** One HTTP client per provider: its own connection pool, its own connect timeout. */
    public static ProviderAdapter create(ProviderSettings settings) {
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
        ProviderAdapter adapter = switch (settings.adapter()) {
            case "fake" -> new FakeAdapter(settings, client);
            case "fal" -> new io.idem.providers.fal.FalAdapter(settings, client);
            case "replicate" -> new io.idem.providers.replicate.ReplicateAdapter(settings, client);
            case "openai_images" -> new io.idem.providers.openai.OpenAiImagesAdapter(settings, client);
            case "runware" -> new io.idem.providers.runware.RunwareAdapter(settings, client);
            default ->
                throw new IllegalArgumentException("provider '" + settings.name() + "': unknown adapter '"
                        + settings.adapter() + "'; known: " + KNOWN);
        };
        return settings.poll() && settings.cancel() ? adapter : new LimitedAdapter(adapter, settings);
    }
}
