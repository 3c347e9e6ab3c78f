package io.idem.server.http;

import io.javalin.Javalin;
import java.util.List;

/**
 * Javalin on virtual threads with what every route shares: the error shape ({@link ApiErrors},
 * Jetty's own errors included), one request id per request, and the refusal of repeated
 * security headers; then each {@link Feature}'s routes, in the order given. Thread-safe once
 * started.
 */
public final class HttpServer implements AutoCloseable {
    /** The buffer Javalin copies a response through: a JSON answer fits, a file takes a few rounds. */
    static final int RESPONSE_COPY_BYTES = 8 * 1024;

    private final Javalin app;
    private final String host;

    /**
     * @param port 0 for any free port
     * @param maxRequestBytes the largest request body any route reads
     */
    public record Settings(String host, int port, long maxRequestBytes) {}

    private HttpServer(Javalin app, String host) {
        this.app = app;
        this.host = host;
    }

    public static HttpServer start(Settings settings, List<Feature> features) {
        Javalin app = Javalin.create(c -> {
            c.concurrency.useVirtualThreads = true;
            c.startup.showJavalinBanner = false;
            c.http.maxRequestSize = settings.maxRequestBytes() + 1;
            // Javalin copies each response through a buffer of this size, taken fresh per response;
            // its default (Jetty's output buffer, 32 KB) was a third of what a chat call allocated
            c.http.responseBufferSize = RESPONSE_COPY_BYTES;
            c.jetty.host = settings.host();
            c.jetty.port = settings.port();
            ApiErrors.install(c);
            RepeatedHeaders.install(c);
            features.forEach(feature -> feature.install(c));
        });
        app.start();
        return new HttpServer(app, settings.host());
    }

    /** One registered HTTP route: its method and its path template as registered. */
    public record Route(String method, String path) {}

    /** The HTTP routes this server serves (before, after and error handlers are not routes). */
    public List<Route> routes() {
        return app.unsafe.internalRouter.allHttpHandlers().stream()
                .map(parsed -> parsed.endpoint)
                .filter(endpoint -> endpoint.method.isHttpMethod())
                .map(endpoint -> new Route(endpoint.method.name(), endpoint.path))
                .toList();
    }

    public int port() {
        return app.port();
    }

    public String baseUrl() {
        return "http://" + host + ":" + app.port();
    }

    @Override
    public void close() {
        app.stop();
    }
}
