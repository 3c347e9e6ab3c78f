package io.idem.server.alerts;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for an alert receiver (a generic webhook, Slack's incoming webhooks, Telegram's Bot
 * API), a real HTTP server on a loopback port that records every request and answers as the real
 * one does: Slack {@code 200 ok}, Telegram {@code {"ok": true, ...}} (or {@code 401} and {@code "ok":
 * false} for a wrong token). It can be told to fail the next requests with a 500.
 */
public final class Receiver implements AutoCloseable {
    public record Request(String path, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst()
                    .orElse(null);
        }
    }

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger failNext = new AtomicInteger();

    private Receiver(String kind, String token) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getPath();
            requests.add(new Request(path, Map.copyOf(exchange.getRequestHeaders()), body));
            int status;
            String answer;
            if (failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                status = 500;
                answer = "internal error";
            } else if (kind.equals("telegram") && !path.equals("/bot" + token + "/sendMessage")) {
                status = 401;
                answer = "{\"ok\":false,\"error_code\":401,\"description\":\"Unauthorized\"}";
            } else if (kind.equals("telegram")) {
                status = 200;
                answer = "{\"ok\":true,\"result\":{\"message_id\":" + requests.size() + "}}";
            } else {
                status = 200;
                answer = "ok";
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
    }

    public static Receiver slack() {
        return new Receiver("slack", null);
    }

    static Receiver telegram(String token) {
        return new Receiver("telegram", token);
    }

    static Receiver webhook() {
        return new Receiver("webhook", null);
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The next {@code n} requests are answered 500. */
    void failNext(int n) {
        failNext.set(n);
    }

    /** The requests whose body mentions {@code text}, answered or not. */
    public List<Request> mentioning(String text) {
        return requests.stream().filter(r -> r.body().contains(text)).toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
