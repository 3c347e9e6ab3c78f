package io.idem.providers.http.wire;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An HTTP/1.1 client on blocking sockets, one virtual thread per call, with kept-alive connections
 * pooled per host: what a vendor call needs and no more, at a fraction of the JDK client's CPU per
 * call (its asynchronous plumbing hands every exchange across several threads).
 *
 * <p>It keeps the JDK client's contract where adapters rely on it: the request timeout bounds the
 * wait for the answer's head ({@link java.net.http.HttpTimeoutException}); a failed connect is a
 * {@link java.net.ConnectException} or {@link java.net.http.HttpConnectTimeoutException}; a request
 * body's publisher is subscribed to only when the body is sent, so with {@code expectContinue(true)}
 * only after the vendor's {@code 100 Continue}; a vendor silent for {@code expectContinueWait} gets
 * the request again on a new connection without {@code Expect}, and one that answers the head
 * alone never gets the body. Cancelling a future from {@link #sendAsync}
 * closes its connection. No redirects, cookies or authentication, as Idem's vendor clients are
 * built. Requests it does not take (HTTP/2, another scheme, a host behind a proxy) go to {@code
 * fallback}. Thread-safe.
 */
public final class Http1Client extends HttpClient {
    /** How long an idle connection is kept at most (less when the server's Keep-Alive says so). */
    static final Duration KEEP_ALIVE = Duration.ofSeconds(20);

    private static final int IDLE_PER_ROUTE = 64;

    private final HttpClient fallback;
    private final Duration connectTimeout;
    private final Duration expectContinueWait;
    private final SSLContext tls;
    private final ConcurrentHashMap<Route, Idle> idle = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Route, Boolean> direct = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** The idle connections of one route, most recently used first. */
    private record Idle(ConcurrentLinkedDeque<Connection> connections, AtomicInteger count) {}

    public Http1Client(HttpClient fallback, Duration connectTimeout, Duration expectContinueWait) {
        this.fallback = Objects.requireNonNull(fallback, "fallback");
        this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
        this.expectContinueWait = Objects.requireNonNull(expectContinueWait, "expectContinueWait");
        if (connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("connect timeout must be positive, was " + connectTimeout);
        }
        if (expectContinueWait.isNegative() || expectContinueWait.isZero()) {
            throw new IllegalArgumentException("the wait for 100 Continue must be positive, was " + expectContinueWait);
        }
        try {
            this.tls = SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no default TLS context", e);
        }
    }

    /** How long a head that asks for {@code 100 Continue} waits before its body goes anyway. */
    public Duration expectContinueWait() {
        return expectContinueWait;
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        Route route = routeOf(request);
        if (route == null) {
            return fallback.send(request, handler);
        }
        try {
            return new Exchange<>(this, request, handler, route).run();
        } catch (IOException e) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted during the exchange");
            }
            throw e;
        }
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        Route route = routeOf(request);
        if (route == null) {
            return fallback.sendAsync(request, handler);
        }
        Exchange<T> exchange = new Exchange<>(this, request, handler, route);
        CompletableFuture<HttpResponse<T>> answer = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                boolean cancelled = super.cancel(mayInterruptIfRunning);
                if (cancelled) {
                    exchange.abort();
                }
                return cancelled;
            }
        };
        Thread.ofVirtual().name("idem-http").start(() -> {
            try {
                answer.complete(exchange.run());
            } catch (IOException | RuntimeException | Error e) {
                answer.completeExceptionally(e);
            }
        });
        return answer;
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
            HttpRequest request, HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> pushes) {
        // HTTP/1.1 has no server push; HTTP/2 requests go to the fallback with their handler
        return routeOf(request) == null ? fallback.sendAsync(request, handler, pushes) : sendAsync(request, handler);
    }

    /** The route this client serves {@code request} on, or null for the fallback. */
    private Route routeOf(HttpRequest request) {
        if (closed || request.version().filter(v -> v == Version.HTTP_2).isPresent()) {
            return null;
        }
        Route route = Route.of(request.uri());
        if (route == null || !direct.computeIfAbsent(route, Http1Client::reachedDirectly)) {
            return null;
        }
        return route;
    }

    /** Whether the JVM's proxy settings send this route straight to its host. */
    private static boolean reachedDirectly(Route route) {
        ProxySelector selector = ProxySelector.getDefault();
        if (selector == null) {
            return true;
        }
        try {
            List<Proxy> proxies =
                    selector.select(URI.create((route.secure() ? "https" : "http") + "://" + route.authority()));
            return proxies.isEmpty() || proxies.getFirst().type() == Proxy.Type.DIRECT;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** A kept connection to {@code route} that still looks usable, or null. */
    Connection idle(Route route) {
        Idle pool = idle.get(route);
        if (pool == null) {
            return null;
        }
        Connection c;
        while ((c = pool.connections().pollFirst()) != null) {
            pool.count().decrementAndGet();
            if (c.stillUsable()) {
                return c;
            }
            c.close();
        }
        return null;
    }

    /** A new connection, within the connect timeout and what is left of {@code deadline}. */
    Connection open(Route route, long deadline) throws IOException {
        Duration within = connectTimeout;
        if (deadline != 0) {
            Duration left = Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
            within = left.compareTo(within) < 0 ? left : within;
        }
        return Connection.open(route, within, tls);
    }

    /** Back to the pool when {@code keep} and the server allows it, else closed. */
    void release(Connection c, boolean keep, ResponseHead head) {
        Duration keepAlive = KEEP_ALIVE;
        long serverSays = head.keepAliveSeconds();
        if (serverSays >= 0) {
            Duration server = Duration.ofSeconds(serverSays).minusSeconds(1);
            keepAlive = server.compareTo(keepAlive) < 0 ? server : keepAlive;
        }
        if (!keep || closed || c.isClosed() || keepAlive.isNegative() || keepAlive.isZero() || c.hasUnreadBytes()) {
            c.close();
            return;
        }
        c.idleFor(keepAlive);
        Idle pool = idle.computeIfAbsent(c.route(), r -> new Idle(new ConcurrentLinkedDeque<>(), new AtomicInteger()));
        if (pool.count().incrementAndGet() > IDLE_PER_ROUTE) {
            pool.count().decrementAndGet();
            c.close();
            return;
        }
        pool.connections().offerFirst(c);
    }

    private void closeIdle() {
        idle.values().forEach(pool -> {
            Connection c;
            while ((c = pool.connections().pollFirst()) != null) {
                pool.count().decrementAndGet();
                c.close();
            }
        });
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return Optional.empty();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return Optional.of(connectTimeout);
    }

    @Override
    public Redirect followRedirects() {
        return Redirect.NEVER;
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return fallback.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return tls;
    }

    @Override
    public SSLParameters sslParameters() {
        return tls.getDefaultSSLParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return Optional.empty();
    }

    @Override
    public Version version() {
        return Version.HTTP_1_1;
    }

    @Override
    public Optional<Executor> executor() {
        return fallback.executor();
    }

    @Override
    public void shutdown() {
        closed = true;
        closeIdle();
        fallback.shutdown();
    }

    @Override
    public boolean awaitTermination(Duration duration) throws InterruptedException {
        return fallback.awaitTermination(duration);
    }

    @Override
    public boolean isTerminated() {
        return closed && fallback.isTerminated();
    }

    @Override
    public void shutdownNow() {
        closed = true;
        closeIdle();
        fallback.shutdownNow();
    }

    @Override
    public void close() {
        closed = true;
        closeIdle();
        fallback.close();
    }
}
