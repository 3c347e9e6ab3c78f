package io.idem.providers.openai;

import static io.idem.providers.http.VendorStandIn.environmentWith;

import io.idem.core.provider.ProviderSettings;
import io.idem.providers.http.CallBuilder;
import io.idem.providers.http.VendorStandIn;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A WireMock stand-in for OpenAI on an ephemeral port, a real HTTP client, and adapters pointed at it.
 * Register it on a static field with {@code @RegisterExtension}.
 */
final class OpenAiFixture extends VendorStandIn {
    static final String KEY_ENV = "IDEM_TEST_OPENAI_KEY";
    static final String SECRET = "sk-test-do-not-print-7f3a";
    static final String MODEL = "gpt-image-1";
    static final BigDecimal PRICE = new BigDecimal("0.04");
    static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    static final String PNG_BASE64 = Base64.getEncoder().encodeToString(PNG);
    static final OpenAiTuning TUNING = new OpenAiTuning(Duration.ofSeconds(5), Duration.ofSeconds(5), 4096);

    URI baseUrl() {
        return URI.create(vendor.baseUrl() + "/v1");
    }

    OpenAiImagesAdapter adapter() {
        return adapterAt(baseUrl(), TUNING);
    }

    OpenAiImagesAdapter adapter(OpenAiTuning tuning) {
        return adapterAt(baseUrl(), tuning);
    }

    OpenAiImagesAdapter adapterAt(URI baseUrl, OpenAiTuning tuning) {
        return new OpenAiImagesAdapter(settings(baseUrl), client, withKey(), REDACTOR, tuning, InstantSource.system());
    }

    OpenAiImagesAdapter adapterWithEnvironment(UnaryOperator<String> environment) {
        return new OpenAiImagesAdapter(
                settings(baseUrl()), client, environment, REDACTOR, TUNING, InstantSource.system());
    }

    static UnaryOperator<String> withKey() {
        return environmentWith(KEY_ENV, SECRET);
    }

    static ProviderSettings settings(URI baseUrl) {
        return new ProviderSettings(
                "openai",
                "openai_images",
                baseUrl,
                Optional.of(KEY_ENV),
                MODEL,
                Map.of("fast-image", "dall-e-3"),
                Duration.ofSeconds(2),
                PRICE,
                true);
    }

    static URI closedPort() throws IOException {
        return URI.create(VendorStandIn.closedOrigin() + "/v1");
    }

    static CallBuilder aCall() {
        return new CallBuilder("openai", MODEL);
    }
}
