package io.idem.core.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything an adapter needs for one call.
 *
 * @param provider the provider's configured name
 * @param vendorModel the vendor's model id (already mapped from Idem's model name)
 * @param reference our attempt id, sent to vendors that can look a call up by it
 * @param simulate a fault-injection directive; only fake providers ever receive one
 * @param callback where the vendor may call back about this attempt (a signed Idem URL), when
 *     Idem has a public address
 */
public record GenerationCall(
        String provider,
        String vendorModel,
        String prompt,
        String kind,
        String size,
        int n,
        Duration timeout,
        String reference,
        Optional<String> simulate,
        AttemptListener listener,
        Optional<java.net.URI> callback) {
    public GenerationCall {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(simulate, "simulate");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(callback, "callback");
    }

    /** A call without a callback address. */
    public GenerationCall(
            String provider,
            String vendorModel,
            String prompt,
            String kind,
            String size,
            int n,
            Duration timeout,
            String reference,
            Optional<String> simulate,
            AttemptListener listener) {
        this(provider, vendorModel, prompt, kind, size, n, timeout, reference, simulate, listener, Optional.empty());
    }
}
