package io.idem.providers.runware;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.common.Slf4jNotifier;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptListener;
import io.idem.core.spi.AttemptRef;
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
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;

/** A WireMock stand-in for Runware's single endpoint, a real HTTP client, and adapters pointed at it. */
final class RunwareFixture implements AutoCloseable {
    static final String KEY_ENV = "IDEM_TEST_RUNWARE_KEY";
    static final String SECRET = "rw-test-do-not-print-91c2";
    static final String MODEL = "runware:101@1";
    static final BigDecimal PRICE = new BigDecimal("0.0038");
    static final byte[] JPEG = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F', 'I', 'F'};
    static final String JPEG_BASE64 = Base64.getEncoder().encodeToString(JPEG);
    static final RunwareTuning TUNING = new RunwareTuning(
            Duration.ofMillis(20),
            Duration.ofMillis(60),
            // Generous: the first exchange with a cold WireMock on a busy machine takes seconds.
            Duration.ofSeconds(8),
            Duration.ofSeconds(5),
            Duration.ofHours(1),
            Duration.ofSeconds(2),
            4096);

    final WireMockServer vendor;
    final HttpClient client;

    private RunwareFixture() {
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

    static RunwareFixture start() {
        RunwareFixture fixture = new RunwareFixture();
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

    RunwareAdapter adapter() {
        return adapterAt(baseUrl(), TUNING);
    }

    RunwareAdapter adapter(RunwareTuning tuning) {
        return adapterAt(baseUrl(), tuning);
    }

    RunwareAdapter adapterAt(URI baseUrl, RunwareTuning tuning) {
        return new RunwareAdapter(settings(baseUrl), client, withKey(), tuning, InstantSource.system());
    }

    RunwareAdapter adapterWithEnvironment(UnaryOperator<String> environment) {
        return new RunwareAdapter(settings(baseUrl()), client, environment, TUNING, InstantSource.system());
    }

    static UnaryOperator<String> withKey() {
        return name -> name.equals(KEY_ENV) ? SECRET : null;
    }

    static ProviderSettings settings(URI baseUrl) {
        return new ProviderSettings(
                "runware",
                "runware",
                baseUrl,
                Optional.of(KEY_ENV),
                MODEL,
                Map.of("flux-dev", "runware:101@1"),
                Duration.ofSeconds(2),
                PRICE,
                true);
    }

    /** The submit of task {@code task} answers with {@code response}. */
    void onSubmit(String task, ResponseDefinitionBuilder response) {
        vendor.stubFor(submit(task).willReturn(response));
    }

    /** A getResponse about {@code task} answers with {@code response}. */
    void onLookup(String task, ResponseDefinitionBuilder response) {
        vendor.stubFor(lookup(task).willReturn(response));
    }

    static MappingBuilder submit(String task) {
        return post(urlEqualTo("/v1"))
                .withRequestBody(matchingJsonPath("$[0].taskType", equalTo("imageInference")))
                .withRequestBody(matchingJsonPath("$[0].taskUUID", equalTo(task)));
    }

    static MappingBuilder lookup(String task) {
        return post(urlEqualTo("/v1"))
                .withRequestBody(matchingJsonPath("$[0].taskType", equalTo("getResponse")))
                .withRequestBody(matchingJsonPath("$[0].taskUUID", equalTo(task)));
    }

    static ResponseDefinitionBuilder json(int status, String body) {
        return aResponse()
                .withStatus(status)
                .withHeader("Content-Type", "application/json")
                .withBody(body);
    }

    static String accepted(String task) {
        return "{\"data\": [{\"taskType\": \"imageInference\", \"taskUUID\": \"" + task + "\"}]}";
    }

    static String processing(String task) {
        return "{\"data\": [{\"taskType\": \"imageInference\", \"taskUUID\": \"" + task
                + "\", \"status\": \"processing\"}]}";
    }

    static String succeeded(String task) {
        return succeeded(task, 1);
    }

    /** A getResponse answer with {@code images} finished generations, each priced by Runware. */
    static String succeeded(String task, int images) {
        String item = """
                {"taskType": "imageInference", "taskUUID": "%s", "status": "success",
                  "imageUUID": "b7db282d-2943-4f12-992f-77df3ad3ec71", "imageBase64Data": "%s",
                  "seed": 1234, "cost": 0.0013}
                """.formatted(task, JPEG_BASE64);
        return "{\"data\": [" + String.join(", ", Collections.nCopies(images, item)) + "]}";
    }

    static String error(String task, String code, String message) {
        return """
                {"errors": [{"code": "%s", "message": "%s", "taskType": "imageInference", "taskUUID": "%s"}]}
                """.formatted(code, message, task);
    }

    static URI closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/v1");
        }
    }

    static CallBuilder aCall() {
        return new CallBuilder();
    }

    static AttemptRef refFor(GenerationCall call, Instant startedAt) {
        return new AttemptRef(call.provider(), call.reference(), Optional.empty(), MODEL, startedAt);
    }

    @Override
    public void close() {
        client.close();
        vendor.stop();
    }

    /** Builds a generation call with sensible defaults and a fresh UUID reference. */
    static final class CallBuilder {
        private Duration timeout = Duration.ofSeconds(30);
        private int n = 1;
        private String reference = UUID.randomUUID().toString();
        private String size = "1024x1024";
        private AttemptListener listener = AttemptListener.NONE;
        private Optional<URI> callback = Optional.empty();

        CallBuilder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        CallBuilder images(int n) {
            this.n = n;
            return this;
        }

        CallBuilder reference(String reference) {
            this.reference = reference;
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

        CallBuilder callback(URI callback) {
            this.callback = Optional.of(callback);
            return this;
        }

        GenerationCall build() {
            return new GenerationCall(
                    "runware",
                    MODEL,
                    "A lighthouse over a cloud ocean",
                    "image",
                    size,
                    n,
                    timeout,
                    reference,
                    Optional.empty(),
                    listener,
                    callback);
        }
    }
}
