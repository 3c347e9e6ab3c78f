package io.idem.providers.http;

import io.idem.core.spi.AttemptListener;
import io.idem.core.spi.GenerationCall;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/** Builds a generation call for one provider with sensible defaults and a fresh UUID reference. */
public final class CallBuilder {
    private final String provider;
    private String vendorModel;
    private Duration timeout = Duration.ofSeconds(30);
    private int n = 1;
    private String reference = UUID.randomUUID().toString();
    private String size = "1024x1024";
    private AttemptListener listener = AttemptListener.NONE;
    private Optional<URI> callback = Optional.empty();

    public CallBuilder(String provider, String vendorModel) {
        this.provider = provider;
        this.vendorModel = vendorModel;
    }

    public CallBuilder timeout(Duration timeout) {
        this.timeout = timeout;
        return this;
    }

    public CallBuilder images(int n) {
        this.n = n;
        return this;
    }

    public CallBuilder vendorModel(String vendorModel) {
        this.vendorModel = vendorModel;
        return this;
    }

    public CallBuilder reference(String reference) {
        this.reference = reference;
        return this;
    }

    public CallBuilder size(String size) {
        this.size = size;
        return this;
    }

    public CallBuilder listener(AttemptListener listener) {
        this.listener = listener;
        return this;
    }

    public CallBuilder callback(URI callback) {
        this.callback = Optional.of(callback);
        return this;
    }

    public GenerationCall build() {
        return new GenerationCall(
                provider,
                vendorModel,
                GenerationCall.Request.images("A lighthouse over a cloud ocean", size, n),
                timeout,
                reference,
                Optional.empty(),
                listener,
                callback);
    }
}
