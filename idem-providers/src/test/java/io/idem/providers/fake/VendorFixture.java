package io.idem.providers.fake;

import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptListener;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.VendorStandIn;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;

/** A real fake vendor on an ephemeral port, a real HTTP client, and adapters pointed at it. */
final class VendorFixture implements AutoCloseable {
    static final String MODEL = "fake-image-v1";

    final FakeVendorServer vendor;
    final HttpClient client;

    private VendorFixture(FakeVendorServer vendor) {
        this.vendor = vendor;
        this.client = io.idem.providers.http.VendorStandIn.client();
    }

    static VendorFixture start() {
        return new VendorFixture(FakeVendorServer.start(0));
    }

    FakeAdapter adapter() {
        return new FakeAdapter(settings(vendor.baseUrl(), Optional.empty()), client);
    }

    FakeAdapter adapterWithKey(String variable, UnaryOperator<String> environment) {
        return new FakeAdapter(
                settings(vendor.baseUrl(), Optional.of(variable)), client, environment, VendorStandIn.REDACTOR);
    }

    FakeAdapter adapterAt(URI baseUrl) {
        return new FakeAdapter(settings(baseUrl, Optional.empty()), client);
    }

    static ProviderSettings settings(URI baseUrl, Optional<String> apiKeyEnv) {
        return new ProviderSettings(
                "primary",
                "fake",
                baseUrl,
                apiKeyEnv,
                MODEL,
                Map.of(),
                Duration.ofSeconds(2),
                new BigDecimal("0.04"),
                true);
    }

    /** The invoice lines that carry {@code reference}. */
    List<LedgerEntry> billedFor(String reference) {
        return vendor.ledger().stream()
                .filter(entry -> reference.equals(entry.reference()))
                .toList();
    }

    static CallBuilder aCall() {
        return new CallBuilder();
    }

    static AttemptRef refFor(GenerationCall call) {
        return new AttemptRef(call.provider(), call.reference(), Optional.empty(), MODEL, Instant.now());
    }

    static AttemptRef refFor(GenerationCall call, String providerRequestId) {
        return new AttemptRef(call.provider(), call.reference(), Optional.of(providerRequestId), MODEL, Instant.now());
    }

    @Override
    public void close() {
        client.close();
        vendor.close();
    }

    /** Builds a generation call with sensible defaults and a fresh reference. */
    static final class CallBuilder {
        private String simulate;
        private Duration timeout = Duration.ofSeconds(5);
        private int n = 1;
        private String prompt = "A lighthouse over a cloud ocean";
        private AttemptListener listener = AttemptListener.NONE;

        CallBuilder simulate(String mode) {
            this.simulate = mode;
            return this;
        }

        CallBuilder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        CallBuilder images(int n) {
            this.n = n;
            return this;
        }

        CallBuilder prompt(String prompt) {
            this.prompt = prompt;
            return this;
        }

        CallBuilder listener(AttemptListener listener) {
            this.listener = listener;
            return this;
        }

        GenerationCall build() {
            return new GenerationCall(
                    "primary",
                    MODEL,
                    GenerationCall.Request.images(prompt, "1024x1024", n),
                    timeout,
                    "att_" + UUID.randomUUID(),
                    Optional.ofNullable(simulate),
                    listener);
        }
    }
}
