package io.idem.providers.http.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idem.providers.http.SendTracker;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Http1Client} against a raw-socket server: framing, kept connections, Expect, timeouts, cancel. */
class Http1ClientTest {
    private static final Duration WAIT = Duration.ofMillis(300);

    private final HttpClient jdk = HttpClient.newHttpClient();
    private final Http1Client client = new Http1Client(jdk, Duration.ofSeconds(2), WAIT);

    @AfterEach
    void close() {
        client.close();
    }

    private static HttpRequest.Builder to(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5));
    }

    private static HttpRequest post(URI uri, String body) {
        return to(uri).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private String body(HttpRequest request) throws Exception {
        return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void aKeptConnectionCarriesTheNextRequests() throws Exception {
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            conn.answer(200, "{\"echo\":\"" + conn.readBody(head) + "\"}");
            return true;
        })) {
            for (int i = 0; i < 5; i++) {
                assertThat(body(post(server.uri("/v1/x"), "n" + i))).isEqualTo("{\"echo\":\"n" + i + "\"}");
            }
            assertThat(server.connections).hasValue(1);
            assertThat(server.requests.getFirst().line()).isEqualTo("POST /v1/x HTTP/1.1");
            assertThat(server.requests.getFirst().header("host"))
                    .isEqualTo("127.0.0.1:" + server.uri("/").getPort());
            assertThat(server.requests.getFirst().header("content-length")).isEqualTo("2");
        }
    }

    @Test
    void aChunkedAnswerIsReadWholeAndItsConnectionKept() throws Exception {
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            conn.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n");
            return true;
        })) {
            assertThat(body(to(server.uri("/a?b=c")).GET().build())).isEqualTo("hello world");
            assertThat(body(to(server.uri("/a")).GET().build())).isEqualTo("hello world");
            assertThat(server.connections).hasValue(1);
            assertThat(server.requests.getFirst().line()).isEqualTo("GET /a?b=c HTTP/1.1");
            assertThat(server.requests.getFirst().header("content-length")).isNull();
        }
    }

    @Test
    void anAnswerFramedByItsCloseIsReadToTheEndAndItsConnectionDropped() throws Exception {
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            conn.write("HTTP/1.1 200 OK\r\n\r\nuntil the end");
            return false;
        })) {
            assertThat(body(to(server.uri("/")).GET().build())).isEqualTo("until the end");
            assertThat(body(to(server.uri("/")).GET().build())).isEqualTo("until the end");
            assertThat(server.connections).hasValue(2);
        }
    }

    @Test
    void connectionCloseIsHonoured() throws Exception {
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            conn.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
            return true;
        })) {
            body(to(server.uri("/")).GET().build());
            body(to(server.uri("/")).GET().build());
            assertThat(server.connections).hasValue(2);
        }
    }

    @Test
    void aKeptConnectionTheServerClosedMeanwhileIsReplaced() throws Exception {
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            conn.answer(200, "c" + conn.number());
            return true;
        })) {
            assertThat(body(to(server.uri("/")).GET().build())).isEqualTo("c1");
            server.dropConnections();
            Thread.sleep(50);
            assertThat(body(post(server.uri("/"), "once"))).isEqualTo("c2");
            assertThat(server.requests).hasSize(2);
        }
    }

    @Test
    void withExpectTheBodyFollowsTheHundredOnly() throws Exception {
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            assertThat(head.header("expect")).isEqualTo("100-continue");
            conn.write("HTTP/1.1 100 Continue\r\n\r\n");
            conn.answer(200, conn.readBody(head));
            return true;
        })) {
            SendTracker tracker = SendTracker.track("the body".getBytes(StandardCharsets.UTF_8));
            HttpRequest request =
                    to(server.uri("/")).expectContinue(true).POST(tracker).build();
            assertThat(client.send(request, HttpResponse.BodyHandlers.ofString())
                            .body())
                    .isEqualTo("the body");
            assertThat(tracker.bodyPulled()).isTrue();
        }
    }

    @Test
    void anAnswerToTheHeadAloneLeavesTheBodyUnpulled() throws Exception {
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            conn.write("HTTP/1.1 401 Unauthorized\r\nContent-Length: 2\r\n\r\nno");
            return true;
        })) {
            SendTracker tracker = SendTracker.track("secret body".getBytes(StandardCharsets.UTF_8));
            HttpRequest request =
                    to(server.uri("/")).expectContinue(true).POST(tracker).build();
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.body()).isEqualTo("no");
            assertThat(tracker.bodyPulled()).isFalse();
            // that connection still owes the body it announced: never reused
            body(to(server.uri("/")).GET().build());
            assertThat(server.connections).hasValue(2);
        }
    }

    @Test
    void aVendorSilentOnExpectGetsTheRequestAgainWithoutItOnANewConnection() throws Exception {
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            if (head.header("expect") != null) {
                return conn.in().read() >= 0; // never says 100; waits for the client to give up
            }
            conn.answer(200, conn.readBody(head));
            return true;
        })) {
            SendTracker tracker = SendTracker.track("late".getBytes(StandardCharsets.UTF_8));
            HttpRequest request =
                    to(server.uri("/")).expectContinue(true).POST(tracker).build();
            assertThat(client.send(request, HttpResponse.BodyHandlers.ofString())
                            .body())
                    .isEqualTo("late");
            assertThat(server.connections).hasValue(2);
            assertThat(server.requests.get(1).header("expect")).isNull();
        }
    }

    @Test
    void noAnswerWithinTheTimeoutIsAnHttpTimeout() throws Exception {
        try (WireStandIn server = WireStandIn.start((conn, head) -> conn.in().read() >= 0)) {
            HttpRequest request = HttpRequest.newBuilder(server.uri("/"))
                    .timeout(Duration.ofMillis(200))
                    .GET()
                    .build();
            assertThatThrownBy(() -> client.send(request, HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(HttpTimeoutException.class);
        }
    }

    @Test
    void theDeadlineWatcherSleepsTowardTheEarliestDeadlineAndAnEarlierOneWakesIt() throws Exception {
        // closed in reverse: the server first, which ends the long read, then the callers
        try (var callers = Executors.newVirtualThreadPerTaskExecutor();
                WireStandIn server = WireStandIn.start((conn, head) -> conn.in().read() >= 0)) {
            HttpRequest slow = HttpRequest.newBuilder(server.uri("/slow"))
                    .timeout(Duration.ofMinutes(5))
                    .GET()
                    .build();
            Future<?> longRead = callers.submit(() -> client.send(slow, HttpResponse.BodyHandlers.ofString()));
            await().atMost(Duration.ofSeconds(5)).until(() -> server.requests.size() == 1);
            // the deadline watcher now sleeps toward the five-minute deadline instead of looking every tick
            long wakes = ReadDeadlines.SHARED.wakes();
            Thread.sleep(500);
            assertThat(ReadDeadlines.SHARED.wakes() - wakes).isLessThanOrEqualTo(5);
            // and a read with an earlier deadline wakes it
            HttpRequest quick = HttpRequest.newBuilder(server.uri("/quick"))
                    .timeout(Duration.ofMillis(200))
                    .GET()
                    .build();
            Future<?> shortRead = callers.submit(() -> client.send(quick, HttpResponse.BodyHandlers.ofString()));
            assertThat(shortRead)
                    .failsWithin(Duration.ofSeconds(30))
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(HttpTimeoutException.class);
            assertThat(longRead).isNotDone();
            longRead.cancel(true);
        }
    }

    @Test
    void aBodyTrickledPastTheTimeoutAndItsGraceIsAnHttpTimeout() throws Exception {
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            conn.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n");
            for (int i = 0; i < 100; i++) {
                conn.write("x");
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return false;
                }
            }
            return true;
        })) {
            HttpRequest request = HttpRequest.newBuilder(server.uri("/"))
                    .timeout(Duration.ofMillis(200))
                    .GET()
                    .build();
            // every byte comes well within a read's wait; the whole body does not come in time
            assertThatThrownBy(() -> client.send(request, HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(HttpTimeoutException.class);
        }
    }

    @Test
    void aRefusedConnectIsAConnectException() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        HttpRequest request =
                to(URI.create("http://127.0.0.1:" + port + "/")).GET().build();
        assertThatThrownBy(() -> client.send(request, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(ConnectException.class);
    }

    @Test
    void aStreamIsReadAsItComesAndClosingItEarlyDropsItsConnection() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            if (conn.number() > 1) {
                conn.answer(200, "next");
                return true;
            }
            conn.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nfirst \r\n");
            if (conn.in().read() < 0) {
                closed.countDown();
            }
            return false;
        })) {
            HttpResponse<InputStream> response =
                    client.send(to(server.uri("/")).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
            InputStream stream = response.body();
            assertThat(new String(stream.readNBytes(6), StandardCharsets.UTF_8)).isEqualTo("first ");
            stream.close();
            assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(body(to(server.uri("/")).GET().build())).isEqualTo("next");
            assertThat(server.connections).hasValue(2);
        }
    }

    @Test
    void cancellingAnAsyncCallClosesItsConnection() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            if (conn.in().read() < 0) {
                closed.countDown();
            }
            return false;
        })) {
            CompletableFuture<HttpResponse<String>> call =
                    client.sendAsync(to(server.uri("/")).GET().build(), HttpResponse.BodyHandlers.ofString());
            while (server.requests.isEmpty()) {
                Thread.sleep(5);
            }
            call.cancel(true);
            assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void anHttp2RequestGoesToTheFallback() throws Exception {
        try (WireStandIn server = WireStandIn.start((conn, head) -> {
            conn.answer(200, "ok");
            return false;
        })) {
            HttpRequest request =
                    to(server.uri("/")).version(HttpClient.Version.HTTP_2).GET().build();
            assertThat(client.send(request, HttpResponse.BodyHandlers.ofString())
                            .body())
                    .isEqualTo("ok");
            // the JDK client asks an http:// server to upgrade; this client never does
            assertThat(server.requests.getFirst().header("upgrade")).isEqualTo("h2c");
        }
    }
}
