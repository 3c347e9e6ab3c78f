package io.idem.providers;

import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.text.Redactor;
import io.idem.providers.http.VendorHttpClients;
import io.idem.providers.vendor.JobAdapterFactory;
import io.idem.providers.vendor.VendorDescriptor;
import java.time.InstantSource;
import java.util.function.UnaryOperator;

/** Creates the job adapter a provider's configuration names, from its vendor's descriptor. */
public final class Adapters {
    private Adapters() {}

    /** With keys from {@code System.getenv} and only the adapter's own key and the shapes redacted. */
    public static ProviderAdapter create(ProviderSettings settings, InstantSource clock) {
        return create(settings, System::getenv, Redactor.shapesOnly(), clock);
    }

    /**
     * One HTTP client per provider: its own connection pool, its own connect timeout.
     *
     * @param environment where the adapter reads its key
     * @param redactor the node's secrets, hidden in everything the vendor says
     * @param clock the node's clock, handed to the adapter
     * @throws IllegalArgumentException the adapter is not a vendor with a job side
     */
    public static ProviderAdapter create(
            ProviderSettings settings, UnaryOperator<String> environment, Redactor redactor, InstantSource clock) {
        JobAdapterFactory factory = Vendors.named(settings.adapter())
                .flatMap(VendorDescriptor::jobs)
                .orElseThrow(() -> new IllegalArgumentException("provider '" + settings.name() + "': unknown adapter '"
                        + settings.adapter() + "'; known: " + Vendors.jobNames()));
        ProviderAdapter adapter =
                factory.create(settings, VendorHttpClients.forProvider(settings), environment, redactor, clock);
        return settings.poll() && settings.cancel() ? adapter : new LimitedAdapter(adapter, settings);
    }
}
