package io.idem.providers.http;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.common.Slf4jNotifier;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.text.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A WireMock stand-in for a vendor on an ephemeral 127.0.0.1 port and a real HTTP client, as a JUnit
 * extension registered on a static field: started and warmed up before the class's tests, reset
 * before each test, stopped after the last. A vendor's fixture extends it with its adapters and
 * bodies. The static parts serve tests that use WireMock's own extension instead.
 */
public class VendorStandIn implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
    /** A secret of the node that is not the adapter's own key (think {@code IDEM_SECRET}). */
    public static final String NODE_SECRET = "node-secret-for-adapter-tests-5e1d";

    /** What the server would hand every adapter: a redactor that knows the node's secrets. */
    public static final Redactor REDACTOR = Redactor.of(List.of(NODE_SECRET));

    public final WireMockServer vendor;
    public final HttpClient client;

    protected VendorStandIn() {
        this.vendor = new WireMockServer(wireMockConfig()
                .bindAddress("127.0.0.1")
                .dynamicPort()
                .containerThreads(12)
                .notifier(new Slf4jNotifier(false)));
        this.client = client();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        vendor.start();
        warmUp();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        vendor.resetAll();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        client.close();
        vendor.stop();
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

    /** An HTTP client built the way the server builds one for adapters: HTTP/1.1, no redirects. */
    public static HttpClient client() {
        // What VendorHttpClients gives every provider.
        return VendorHttpClients.with(
                Duration.ofSeconds(2), io.idem.core.provider.ProviderSettings.ExpectContinue.DEFAULT.timeout());
    }

    /** WireMock's own extension, on a dynamic port with enough threads for concurrent calls. */
    public static WireMockExtension extension() {
        return WireMockExtension.newInstance()
                .options(wireMockConfig().dynamicPort().containerThreads(12))
                .build();
    }

    /** A JSON answer with {@code status}. */
    public static ResponseDefinitionBuilder json(int status, String body) {
        return aResponse()
                .withStatus(status)
                .withHeader("Content-Type", "application/json")
                .withBody(body);
    }

    /** {@code http://127.0.0.1:<port>} for a port nothing listens on. */
    public static String closedOrigin() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    /** An environment in which only {@code variable} is set, to {@code secret}. */
    public static UnaryOperator<String> environmentWith(String variable, String secret) {
        return name -> name.equals(variable) ? secret : null;
    }
}
