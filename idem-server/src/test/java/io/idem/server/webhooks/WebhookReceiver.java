package io.idem.server.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.idem.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A webhook receiver as a customer would write one, a real HTTP server on a loopback port: it checks
 * every request's Standard Webhooks signature with the secret it was given for that path (its own
 * HMAC code, not Idem's), and the timestamp's freshness, and records what came. It can be told to
 * answer the next requests with a 500, or to hold requests until released (a receiver that is slow
 * while a node dies).
 */
public final class WebhookReceiver implements AutoCloseable {
    /** One request as it arrived. */
    public record Received(
            String path, String id, String timestamp, String signature, String body, boolean signedRight, int status) {
        public JsonNode json() {
            try {
                return Json.MAPPER.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public String type() {
            return json().path("type").asText();
        }
    }

    private final HttpServer server;
    private final Map<String, String> secrets = new ConcurrentHashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> failNext = new ConcurrentHashMap<>();
    private final Map<String, String> failWith = new ConcurrentHashMap<>();
    private final AtomicReference<CountDownLatch> hold = new AtomicReference<>();

    private WebhookReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    public static WebhookReceiver start() {
        return new WebhookReceiver();
    }

    /** The address of {@code path} on this receiver. */
    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** Requests to {@code path} are checked against {@code secret}. */
    public void expect(String path, String secret) {
        secrets.put(path, secret);
    }

    /** The next {@code n} requests to {@code path} get a 500 whose body is {@code words}. */
    public void failNext(String path, int n, String words) {
        failWith.put(path, words);
        failNext.put(path, new AtomicInteger(n));
    }

    /** Requests from now on wait (recorded as they arrive) until {@link #release()}. */
    public void holdRequests() {
        hold.set(new CountDownLatch(1));
    }

    public void release() {
        CountDownLatch latch = hold.getAndSet(null);
        if (latch != null) {
            latch.countDown();
        }
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public List<Received> at(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = exchange.getRequestURI().getPath();
        var headers = exchange.getRequestHeaders();
        String id = headers.getFirst("webhook-id");
        String timestamp = headers.getFirst("webhook-timestamp");
        String signature = headers.getFirst("webhook-signature");
        boolean signedRight = verifies(secrets.get(path), id, timestamp, signature, body);
        CountDownLatch waiting = hold.get();
        boolean fail = failNext.getOrDefault(path, new AtomicInteger()).getAndUpdate(n -> Math.max(0, n - 1)) > 0;
        int status = fail ? 500 : signedRight ? 200 : 401;
        received.add(new Received(path, id, timestamp, signature, body, signedRight, status));
        if (waiting != null) {
            try {
                waiting.await(2, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] answer =
                (fail ? failWith.get(path) : signedRight ? "ok" : "bad signature").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }

    /** The Standard Webhooks check: some {@code v1,} signature equals HMAC-SHA256(id.timestamp.body), fresh. */
    static boolean verifies(String secret, String id, String timestamp, String signatures, String body) {
        if (secret == null || id == null || timestamp == null || signatures == null) {
            return false;
        }
        long sent = Long.parseLong(timestamp);
        if (Math.abs(Instant.now().getEpochSecond() - sent)
                > Duration.ofMinutes(5).toSeconds()) {
            return false;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
            byte[] expected = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            for (String candidate : signatures.split(" ")) {
                if (candidate.startsWith("v1,")
                        && MessageDigest.isEqual(expected, Base64.getDecoder().decode(candidate.substring(3)))) {
                    return true;
                }
            }
            return false;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
