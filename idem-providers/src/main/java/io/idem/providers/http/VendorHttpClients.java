package io.idem.providers.http;

import io.idem.core.provider.ProviderSettings;
import java.net.http.HttpClient;
import java.util.concurrent.Executors;

/**
 * The one way Idem builds the {@link HttpClient} a provider's adapter talks through: HTTP/1.1 (so a
 * generation POST can ask for {@code 100 Continue}), the provider's connect timeout (the JDK sets it
 * per client, not per request), no redirects (a vendor that moves must be reconfigured, never
 * followed with the key), virtual threads, and the provider's wait for {@code 100 Continue} ({@link
 * ExpectContinueClient}). One client per provider: its own connection pool.
 */
public final class VendorHttpClients {
    private VendorHttpClients() {}

    /** A new client for {@code settings}' provider. */
    public static HttpClient forProvider(ProviderSettings settings) {
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
        return new ExpectContinueClient(client, settings.expectContinue().timeout());
    }
}
