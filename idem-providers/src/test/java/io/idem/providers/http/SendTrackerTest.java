package io.idem.providers.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.providers.fake.FakeVendorServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pins down the JDK client behaviour the billing-safe classification rests on: with {@code
 * expectContinue(true)} the client does not ask for the body until the server says {@code 100
 * Continue}. If a JDK upgrade changes that, these tests fail before any invoice does.
 */
class SendTrackerTest {
    private static final byte[] BODY =
            "{\"model\":\"m\",\"prompt\":\"p\",\"reference\":\"tracker\"}".getBytes(StandardCharsets.UTF_8);
    private static FakeVendorServer vendor;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        vendor = FakeVendorServer.start(0);
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        vendor.close();
    }

    private static HttpRequest.Builder post(URI uri, SendTracker tracker, String simulate) {
        return HttpRequest.newBuilder(uri)
                .version(HttpClient.Version.HTTP_1_1)
                .timeout(Duration.ofSeconds(5))
                .header("X-Idem-Simulate", simulate)
                .POST(tracker);
    }

    private static URI generations() {
        return URI.create(vendor.baseUrl() + "/v1/images/generations");
    }

    @Test
    void aResetBeforeContinueLeavesTheBodyUnpulled() {
        SendTracker tracker = SendTracker.track(BODY);

        assertThatThrownBy(() -> client.send(
                        post(generations(), tracker, "refuse")
                                .expectContinue(true)
                                .build(),
                        HttpResponse.BodyHandlers.discarding()))
                .isInstanceOf(IOException.class);
        assertThat(tracker.bodyPulled()).isFalse();
    }

    @Test
    void aResetOnAReusedConnectionLeavesTheBodyUnpulled() throws Exception {
        SendTracker first = SendTracker.track(BODY);
        client.send(
                post(generations(), first, "ok").expectContinue(true).build(), HttpResponse.BodyHandlers.discarding());
        SendTracker second = SendTracker.track(BODY);

        assertThatThrownBy(() -> client.send(
                        post(generations(), second, "refuse")
                                .expectContinue(true)
                                .build(),
                        HttpResponse.BodyHandlers.discarding()))
                .isInstanceOf(IOException.class);
        assertThat(first.bodyPulled()).isTrue();
        assertThat(second.bodyPulled()).isFalse();
    }

    @Test
    void aFinalStatusBeforeContinueLeavesTheBodyUnpulled() throws Exception {
        SendTracker tracker = SendTracker.track(BODY);

        HttpResponse<Void> response = client.send(
                post(generations(), tracker, "http_503").expectContinue(true).build(),
                HttpResponse.BodyHandlers.discarding());

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(tracker.bodyPulled()).isFalse();
    }

    @Test
    void aGracefulCloseBeforeContinueLeavesTheBodyUnpulled() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Thread.ofVirtual().start(() -> closeAfterHead(server));
            SendTracker tracker = SendTracker.track(BODY);
            URI uri = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/v1/images/generations");

            assertThatThrownBy(() -> client.send(
                            post(uri, tracker, "ok").expectContinue(true).build(),
                            HttpResponse.BodyHandlers.discarding()))
                    .isInstanceOf(IOException.class);
            assertThat(tracker.bodyPulled()).isFalse();
        }
    }

    @Test
    void aDropAfterContinueFindsTheBodyPulled() {
        SendTracker tracker = SendTracker.track(BODY);

        assertThatThrownBy(() -> client.send(
                        post(generations(), tracker, "disconnect")
                                .expectContinue(true)
                                .build(),
                        HttpResponse.BodyHandlers.discarding()))
                .isInstanceOf(IOException.class);
        assertThat(tracker.bodyPulled()).isTrue();
        assertThat(tracker.bytesPulled()).isEqualTo(BODY.length);
    }

    @Test
    void aTimeoutAfterContinueFindsTheBodyPulled() {
        SendTracker tracker = SendTracker.track(BODY);
        HttpRequest request = post(generations(), tracker, "timeout")
                .timeout(Duration.ofMillis(300))
                .expectContinue(true)
                .build();

        assertThatThrownBy(() -> client.send(request, HttpResponse.BodyHandlers.discarding()))
                .isInstanceOf(HttpTimeoutException.class);
        assertThat(tracker.bodyPulled()).isTrue();
    }

    @Test
    void withoutExpectContinueEvenARefusedRequestHasItsBodyPulled() {
        SendTracker tracker = SendTracker.track(BODY);

        assertThatThrownBy(() -> client.send(
                        post(generations(), tracker, "refuse").build(), HttpResponse.BodyHandlers.discarding()))
                .isInstanceOf(IOException.class);
        // Which is why every billable POST asks for 100 Continue: without it, refuse and disconnect
        // look the same from here, and both would have to be Unconfirmed.
        assertThat(tracker.bodyPulled()).isTrue();
    }

    /** Reads one request head, then closes with a FIN (not a reset) without answering. */
    private static void closeAfterHead(ServerSocket server) {
        try (Socket socket = server.accept()) {
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                // skip the head
            }
            socket.shutdownOutput();
        } catch (IOException e) {
            // the test asserts on the client side
        }
    }
}
