package io.idem.providers.http;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An {@link HttpClient} that waits for {@code 100 Continue} only so long, as curl does: a request
 * that asks for it ({@code expectContinue(true)}) and whose body is a {@link SendTracker} gets
 * {@code wait} for the vendor to answer its head, with a {@code 100} or a final answer. A vendor
 * that ignores {@code Expect} would otherwise hold the call until the JDK's own fixed wait (the
 * smaller of five seconds and the request timeout), and a call that times out there may end
 * {@code Unconfirmed} although the vendor never saw its body.
 *
 * <p>When the wait runs out, the tracker is {@linkplain SendTracker#withhold() withheld}, which
 * succeeds only if the client never asked for the body and makes sure it never will on that
 * exchange; that exchange is canceled and the same request is sent again without {@code Expect},
 * with what is left of its timeout. Because the first exchange provably sent no body byte, the
 * vendor sees the body once. A {@code 417 Expectation Failed} answer is resent the same way, at
 * once. If the client had already asked for the body (the {@code 100} came), nothing is resent:
 * the one exchange runs to its end and is classified as before. The wait counts from the send,
 * connecting included: the JDK client does not say when the head left. A request whose timeout is
 * no longer than the wait is left to the JDK alone.
 *
 * <p>Every other request, and every other method, goes to the JDK client unchanged. Thread-safe.
 */
public final class ExpectContinueClient extends HttpClient {
    private static final int EXPECTATION_FAILED = 417;

    /**
     * Runs the waits. A wait whose call ended first is removed at once, so a busy node keeps no
     * finished answer alive until its wait would have run out.
     */
    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private final HttpClient client;
    private final Duration wait;

    /** Wraps {@code client}; {@code wait} is how long a head waits for {@code 100 Continue}. */
    public ExpectContinueClient(HttpClient client, Duration wait) {
        this.client = Objects.requireNonNull(client, "client");
        this.wait = Objects.requireNonNull(wait, "wait");
        if (wait.isNegative() || wait.isZero()) {
            throw new IllegalArgumentException("the wait for 100 Continue must be positive, was " + wait);
        }
    }

    /** How long a head waits for {@code 100 Continue} before the body is sent anyway. */
    public Duration expectContinueWait() {
        return wait;
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return tracked(request)
                .map(tracker -> new Race<>(request, tracker, handler).start())
                .orElseGet(() -> client.sendAsync(request, handler));
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
            HttpRequest request, HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> pushes) {
        // HTTP/2 server push: never used with Expect here (vendor calls are HTTP/1.1).
        return tracked(request).isPresent() ? sendAsync(request, handler) : client.sendAsync(request, handler, pushes);
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        if (tracked(request).isEmpty()) {
            return client.send(request, handler);
        }
        CompletableFuture<HttpResponse<T>> future = sendAsync(request, handler);
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause);
        } catch (InterruptedException e) {
            future.cancel(true);
            throw e;
        }
    }

    /** The tracker of a request this client races, if it is one. */
    private Optional<SendTracker> tracked(HttpRequest request) {
        if (!request.expectContinue()) {
            return Optional.empty();
        }
        if (request.timeout().isPresent() && request.timeout().get().compareTo(wait) <= 0) {
            return Optional.empty(); // the JDK's own wait (the timeout) comes first anyway
        }
        return request.bodyPublisher().filter(SendTracker.class::isInstance).map(SendTracker.class::cast);
    }

    /**
     * One request raced against the wait. {@code decided} makes exactly one of "the first exchange's
     * end is the answer" and "the request is sent again" happen.
     */
    private final class Race<T> {
        private final HttpRequest request;
        private final SendTracker tracker;
        private final HttpResponse.BodyHandler<T> handler;
        private final CompletableFuture<HttpResponse<T>> result = new CompletableFuture<>();
        private final AtomicBoolean decided = new AtomicBoolean();
        private final long started = System.nanoTime();
        private volatile CompletableFuture<HttpResponse<T>> again;

        Race(HttpRequest request, SendTracker tracker, HttpResponse.BodyHandler<T> handler) {
            this.request = request;
            this.tracker = tracker;
            this.handler = handler;
        }

        CompletableFuture<HttpResponse<T>> start() {
            CompletableFuture<HttpResponse<T>> first = client.sendAsync(request, handler);
            result.whenComplete((response, failure) -> {
                if (result.isCancelled()) {
                    first.cancel(true);
                    cancelAgain();
                }
            });
            ScheduledFuture<?> timer = TIMER.schedule(() -> waited(first), wait.toNanos(), TimeUnit.NANOSECONDS);
            first.whenComplete((response, failure) -> timer.cancel(false));
            first.whenComplete(this::firstEnded);
            return result;
        }

        private void firstEnded(HttpResponse<T> response, Throwable failure) {
            if (failure != null && SendTracker.isWithheld(failure)) {
                return; // withheld by waited(), which sends the request again
            }
            if (response != null && response.statusCode() == EXPECTATION_FAILED && tracker.withhold()) {
                discard(response);
                if (decided.compareAndSet(false, true)) {
                    sendAgain();
                }
                return;
            }
            if (decided.compareAndSet(false, true)) {
                deliver(response, failure);
            }
        }

        private void waited(CompletableFuture<HttpResponse<T>> first) {
            if (first.isDone() || !tracker.withhold()) {
                return; // answered, or the 100 came and the body is on its way: the exchange stands
            }
            if (decided.compareAndSet(false, true)) {
                first.cancel(true);
                sendAgain();
            }
        }

        private void sendAgain() {
            Optional<Duration> left = request.timeout()
                    .map(timeout -> timeout.minusNanos(System.nanoTime() - started))
                    .map(timeout -> timeout.isNegative() || timeout.isZero() ? Duration.ofMillis(1) : timeout);
            HttpRequest.Builder builder = HttpRequest.newBuilder(request, (name, value) -> true)
                    .expectContinue(false)
                    .method(request.method(), tracker.resent());
            left.ifPresent(builder::timeout);
            CompletableFuture<HttpResponse<T>> sent;
            try {
                sent = client.sendAsync(builder.build(), handler);
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
                return;
            }
            again = sent;
            sent.whenComplete(this::deliver);
            if (result.isCancelled()) {
                cancelAgain();
            }
        }

        private void cancelAgain() {
            CompletableFuture<HttpResponse<T>> sent = again;
            if (sent != null) {
                sent.cancel(true);
            }
        }

        private void deliver(HttpResponse<T> response, Throwable failure) {
            if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(response);
            }
        }
    }

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(
                1, Thread.ofPlatform().daemon().name("idem-expect-continue").factory());
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /** Frees the connection behind an answer nobody will read. */
    private static void discard(HttpResponse<?> response) {
        if (response.body() instanceof AutoCloseable body) {
            try {
                body.close();
            } catch (Exception e) {
                // the answer is dropped either way
            }
        }
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return client.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return client.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return client.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return client.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return client.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return client.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return client.authenticator();
    }

    @Override
    public Version version() {
        return client.version();
    }

    @Override
    public Optional<Executor> executor() {
        return client.executor();
    }

    @Override
    public void shutdown() {
        client.shutdown();
    }

    @Override
    public boolean awaitTermination(Duration duration) throws InterruptedException {
        return client.awaitTermination(duration);
    }

    @Override
    public boolean isTerminated() {
        return client.isTerminated();
    }

    @Override
    public void shutdownNow() {
        client.shutdownNow();
    }

    @Override
    public void close() {
        client.close();
    }
}
