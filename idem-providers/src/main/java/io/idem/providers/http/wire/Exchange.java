package io.idem.providers.http.wire;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One request and its answer over {@link Http1Client}'s connections. The request timeout bounds
 * everything up to the answer's head, as the JDK client's does; a body read inline (a byte array,
 * a string) gets {@link #BODY_GRACE_NANOS} more; a streamed body (an input stream) is read by the
 * caller at its own pace.
 *
 * <p>A request asking for {@code 100 Continue} sends its head alone and waits for the vendor: a
 * {@code 100} and the body follows; any final answer first and the body never leaves; {@code 417},
 * or no word within the client's wait, and that connection is dropped and the request goes once
 * more on a new one without {@code Expect}, so a body never reaches a connection whose head was
 * not answered. A reused connection that turns out closed before any answer is retried once on a new
 * one, only when nothing can have been acted on: no body was sent (a GET, or a body still waiting
 * for its {@code 100}).
 */
final class Exchange<T> {
    static final long BODY_GRACE_NANOS = 2_000_000_000L;

    private final Http1Client client;
    private final HttpRequest request;
    private final HttpResponse.BodyHandler<T> handler;
    private final Route route;
    /** {@code System.nanoTime()} by which the answer's head must be in; 0: no limit. */
    private final long deadline;

    private volatile Connection current;
    private volatile boolean aborted;
    private boolean bodySent;

    Exchange(Http1Client client, HttpRequest request, HttpResponse.BodyHandler<T> handler, Route route) {
        this.client = client;
        this.request = request;
        this.handler = handler;
        this.route = route;
        this.deadline = request.timeout()
                .map(t -> {
                    long d = System.nanoTime() + t.toNanos();
                    return d == 0 ? 1 : d;
                })
                .orElse(0L);
    }

    HttpResponse<T> run() throws IOException {
        long length = RequestWriter.length(request);
        boolean expect = request.expectContinue() && length != 0;
        boolean fresh = false;
        while (true) {
            Connection c = fresh ? null : client.idle(route);
            boolean reused = c != null;
            if (c == null) {
                c = client.open(route, deadline);
            }
            current = c;
            if (aborted) {
                c.close();
                throw new IOException("request canceled");
            }
            try {
                Optional<HttpResponse<T>> answer = on(c, length, expect);
                if (answer.isPresent()) {
                    return answer.get();
                }
                expect = false; // 417, or no 100 in time: once more, body and head together
                fresh = true;
            } catch (EOFException | SocketException | javax.net.ssl.SSLException e) {
                c.close();
                boolean safe = !bodySent && (length != 0 || idempotent());
                if (!reused || !safe || aborted) {
                    throw e;
                }
                fresh = true; // a kept connection the server had closed: nothing reached it
            } catch (IOException | RuntimeException e) {
                c.close();
                throw e;
            }
        }
    }

    /** Stops the exchange from any thread: its connection is closed, so a blocked read or write ends. */
    void abort() {
        aborted = true;
        Connection c = current;
        if (c != null) {
            c.close();
        }
    }

    private boolean idempotent() {
        String method = request.method();
        return method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS");
    }

    /** The answer on {@code c}, or empty when the vendor refused {@code Expect} (417) or kept silent. */
    private Optional<HttpResponse<T>> on(Connection c, long length, boolean expect) throws IOException {
        RequestWriter.head(c.out, request, route, length, expect);
        ResponseHead head;
        boolean bodyLeftUnsent = false;
        if (length == 0) {
            c.out.flush();
            head = finalHead(c);
        } else if (!expect) {
            sendBody(c, length);
            head = finalHead(c);
        } else {
            c.out.flush();
            head = interim(c);
            if (head == null || head.status() == 417) {
                c.close(); // no word in time, or Expect refused: that connection never carries the body
                return Optional.empty();
            } else if (head.status() == 100) {
                sendBody(c, length);
                head = finalHead(c);
            } else {
                bodyLeftUnsent = true; // answered on the head alone: the connection cannot carry more
            }
        }
        return Optional.of(answer(c, head, !bodyLeftUnsent));
    }

    private void sendBody(Connection c, long length) throws IOException {
        bodySent = true;
        RequestWriter.body(c.out, request.bodyPublisher().orElseThrow(), length < 0, millisUntil(deadline));
        c.out.flush();
    }

    /** The vendor's first word on a head that asked for {@code 100 Continue}; null when its wait ran out first. */
    private ResponseHead interim(Connection c) throws IOException {
        long waitEnd = System.nanoTime() + client.expectContinueWait().toNanos();
        boolean waitFirst = deadline == 0 || waitEnd - deadline < 0;
        while (true) {
            try {
                ResponseHead head = c.readBy(waitFirst ? waitEnd : deadline, () -> ResponseHead.read(c.in));
                if (head.status() / 100 != 1 || head.status() == 100) {
                    return head;
                }
            } catch (SocketTimeoutException e) {
                if (waitFirst) {
                    return null;
                }
                throw timedOut();
            }
        }
    }

    /** The final answer's head, skipping any interim {@code 1xx}. */
    private ResponseHead finalHead(Connection c) throws IOException {
        while (true) {
            try {
                ResponseHead head = c.readBy(deadline, () -> ResponseHead.read(c.in));
                if (head.status() / 100 != 1) {
                    return head;
                }
            } catch (SocketTimeoutException e) {
                throw timedOut();
            }
        }
    }

    private HttpResponse<T> answer(Connection c, ResponseHead head, boolean reusable) throws IOException {
        HttpResponse.BodySubscriber<T> subscriber = handler.apply(head);
        boolean keep = reusable && !head.closes();
        BodyInput body = BodyInput.of(head, c.in, request.method().equals("HEAD"));
        BodyFeed feed = new BodyFeed(body, c, subscriber, clean -> client.release(c, clean && keep, head));
        subscriber.onSubscribe(feed);
        CompletableFuture<T> value = subscriber.getBody().toCompletableFuture();
        if (value.isDone()) {
            Thread.ofVirtual().name("idem-http-body").start(feed); // a stream: its reader sets the pace
        } else {
            feed.within(deadline == 0 ? 0 : deadline + BODY_GRACE_NANOS);
            feed.run();
        }
        return new Http1Response<>(head.status(), request, head.headers(), await(value), Optional.empty());
    }

    private static <T> T await(CompletableFuture<T> value) throws IOException {
        try {
            return value.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SocketTimeoutException) {
                throw new HttpTimeoutException("response body timed out");
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException("response body failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while reading the response body");
        }
    }

    private static HttpTimeoutException timedOut() {
        return new HttpTimeoutException("request timed out");
    }

    /** Milliseconds left until {@code nanos} (at least 1), or 0 (no limit) for no deadline. */
    static long millisUntil(long nanos) {
        if (nanos == 0) {
            return 0;
        }
        long left = nanos - System.nanoTime();
        return Math.max(1, (left + 999_999) / 1_000_000);
    }
}
