package io.idem.providers.vendor;

import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.text.Redactor;
import java.net.http.HttpClient;
import java.time.InstantSource;
import java.util.function.UnaryOperator;

/** Creates a vendor's job adapter; the adapter's public constructor, as a method reference. */
@FunctionalInterface
public interface JobAdapterFactory {
    /**
     * @param client the provider's own client ({@code VendorHttpClients.forProvider})
     * @param environment where the adapter reads its key
     * @param redactor the node's secrets, hidden in everything the vendor says
     * @param clock the node's clock, for the adapter's own deadlines (polling a submitted call)
     */
    ProviderAdapter create(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock);
}
