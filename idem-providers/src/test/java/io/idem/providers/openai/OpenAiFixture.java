package io.idem.providers.openai;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.common.Slf4jNotifier;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptListener;
import io.idem.core.spi.GenerationCall;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;

/** A WireMock stand-in for OpenAI on an ephemeral port, a real HTTP client, and adapters pointed at it. */
final class OpenAiFixture implements AutoCloseable {
    static final String KEY_ENV = "IDEM_TEST_OPENAI_KEY";
    static final String SECRET = "sk-test-do-not-print-7f3a";
    static final String MODEL = "gpt-image-1";
    static final BigDecimal PRICE = new BigDecimal("0.04");
    static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    static final String PNG_BASE64 = Base64.getEncoder().encodeToString(PNG);
    static final OpenAiTuning TUNING = new OpenAiTuning(Duration.ofSeconds(5), Duration.ofSeconds(5), 4096);

    final WireMockServer vendor;
    final HttpClient client;

    private OpenAiFixture() {
        this.vendor = new WireMockServer(wireMockConfig()
                .bindAddress("127.0.0.1")
                .dynamicPort()
                .containerThreads(12)
                .notifier(new Slf4jNotifier(false)));
        vendor.start();
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    static OpenAiFixture start() {
        OpenAiFixture fixture = new OpenAiFixture();
        fixture.warmUp();
        return fixture;
    }

    /**
     * One throwaway exchange, so the seconds a cold server and client take on a busy machine are
     * spent here and not inside a test's deadline.
     */
    private void warmUp() {
        try {
            client.send(
                    HttpRequest.newBuilder(URI.create(vendor.baseUrl() + "/__admin/mappings"))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

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
        return new OpenAiImagesAdapter(settings(baseUrl), client, withKey(), tuning, InstantSource.system());
    }

    OpenAiImagesAdapter adapterWithEnvironment(UnaryOperator<String> environment) {
        return new OpenAiImagesAdapter(settings(baseUrl()), client, environment, TUNING, InstantSource.system());
    }

    static UnaryOperator<String> withKey() {
        return name -> name.equals(KEY_ENV) ? SECRET : null;
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
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/v1");
        }
    }

    static CallBuilder aCall() {
        return new CallBuilder();
    }

    @Override
    public void close() {
        client.close();
        vendor.stop();
    }

    /** Builds a generation call with sensible defaults and a fresh reference. */
    static final class CallBuilder {
        private Duration timeout = Duration.ofSeconds(30);
        private int n = 1;
        private String vendorModel = MODEL;
        private String size = "1024x1024";
        private AttemptListener listener = AttemptListener.NONE;

        CallBuilder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        CallBuilder images(int n) {
            this.n = n;
            return this;
        }

        CallBuilder vendorModel(String vendorModel) {
            this.vendorModel = vendorModel;
            return this;
        }

        CallBuilder size(String size) {
            this.size = size;
            return this;
        }

        CallBuilder listener(AttemptListener listener) {
            this.listener = listener;
            return this;
        }

        GenerationCall build() {
            return new GenerationCall(
                    "openai",
                    vendorModel,
                    "A lighthouse over a cloud ocean",
                    "image",
                    size,
                    n,
                    timeout,
                    UUID.randomUUID().toString(),
                    Optional.empty(),
                    listener);
        }
    }
}
