package io.idem.providers.http;

import io.idem.core.provider.ProviderSettings;
import io.idem.providers.http.wire.Http1Client;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.Executors;

/**
 * The one way Idem builds the {@link HttpClient} a provider's adapter talks through: HTTP/1.1 (so a
 * generation POST can ask for {@code 100 Continue}), the provider's connect timeout, no redirects (a
 * vendor that moves must be reconfigured, never followed with the key), and the provider's wait for
 * {@code 100 Continue}. Calls go over {@link Http1Client} (blocking sockets on virtual threads, kept
 * connections per host); what it does not take goes to the JDK client behind {@link
 * ExpectContinueClient}. One client per provider: its own connection pool.
 */
public final class VendorHttpClients {
    private VendorHttpClients() {}

    /** A new client for {@code settings}' provider. */
    public static HttpClient forProvider(ProviderSettings settings) {
        return with(settings.connectTimeout(), settings.expectContinue().timeout());
    }

    /** A new client with this connect timeout and wait for {@code 100 Continue}. */
    public static HttpClient with(Duration connectTimeout, Duration expectContinueWait) {
        HttpClient jdk = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
        return new Http1Client(new ExpectContinueClient(jdk, expectContinueWait), connectTimeout, expectContinueWait);
    }
}
