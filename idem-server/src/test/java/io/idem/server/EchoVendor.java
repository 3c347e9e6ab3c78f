package io.idem.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.idem.server.http.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A vendor stand-in that refuses every request with the status it is told, in its vendor's error
 * shape, quoting back the {@code Authorization} header it received and the key (as OpenAI's 401
 * and careless proxies do). It notes whether the key ever arrived, so a test can tell the call
 * really went out with it.
 */
final class EchoVendor implements AutoCloseable {
    private final HttpServer server;
    private final String key;
    private final UnaryOperator<String> shape;
    private final AtomicInteger status = new AtomicInteger(401);
    private final AtomicBoolean sawKey = new AtomicBoolean();

    /** @param shape the vendor's error body around a JSON string literal of what it says */
    private EchoVendor(String key, UnaryOperator<String> shape) throws IOException {
        this.key = key;
        this.shape = shape;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    static EchoVendor start(String key, UnaryOperator<String> shape) {
        try {
            return new EchoVendor(key, shape);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void answerWith(int status) {
        this.status.set(status);
    }

    boolean sawKey() {
        return sawKey.get();
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            sawKey.compareAndSet(false, authorization != null && authorization.contains(key));
            String words = "Authorization header was '" + authorization + "', key " + key;
            byte[] body = shape.apply(literal(words)).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status.get(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static String literal(String text) {
        try {
            return Json.MAPPER.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
