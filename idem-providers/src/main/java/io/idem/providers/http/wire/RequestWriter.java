package io.idem.providers.http.wire;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Puts a request on the wire: the head (with {@code Expect: 100-continue} when asked), then, only
 * when {@link #body} is called, the body. The body publisher is subscribed to there and nowhere
 * else, so a body whose publisher was never subscribed to provably never left this process.
 */
final class RequestWriter {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final String USER_AGENT = "idem";

    private RequestWriter() {}

    /** The body's length for the head: -1 (chunked), 0 (none) or the publisher's length. */
    static long length(HttpRequest request) {
        return request.bodyPublisher()
                .map(HttpRequest.BodyPublisher::contentLength)
                .orElse(0L);
    }

    static void head(OutputStream out, HttpRequest request, Route route, long length, boolean expect)
            throws IOException {
        StringBuilder head = new StringBuilder(256);
        String path = request.uri().getRawPath();
        head.append(request.method()).append(' ').append(path == null || path.isEmpty() ? "/" : path);
        if (request.uri().getRawQuery() != null) {
            head.append('?').append(request.uri().getRawQuery());
        }
        head.append(" HTTP/1.1\r\nHost: ").append(route.authority()).append("\r\n");
        boolean agent = false;
        for (Map.Entry<String, List<String>> field : request.headers().map().entrySet()) {
            agent |= field.getKey().equalsIgnoreCase("user-agent");
            for (String value : field.getValue()) {
                head.append(field.getKey()).append(": ").append(value).append("\r\n");
            }
        }
        if (!agent) {
            head.append("User-Agent: ").append(USER_AGENT).append("\r\n");
        }
        if (length > 0 || (length == 0 && sendsZeroLength(request.method()))) {
            head.append("Content-Length: ").append(length).append("\r\n");
        } else if (length < 0) {
            head.append("Transfer-Encoding: chunked\r\n");
        }
        if (expect) {
            head.append("Expect: 100-continue\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Methods whose empty body is announced, as the JDK client does. */
    private static boolean sendsZeroLength(String method) {
        return !(method.equals("GET") || method.equals("HEAD") || method.equals("DELETE") || method.equals("OPTIONS"));
    }

    /** Subscribes to the body and writes all of it (as chunks when {@code chunked}), within {@code millis}. */
    static void body(OutputStream out, HttpRequest.BodyPublisher publisher, boolean chunked, long millis)
            throws IOException {
        Sink sink = new Sink(out, chunked);
        publisher.subscribe(sink);
        try {
            sink.done.get(millis <= 0 ? Long.MAX_VALUE : millis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException("request body failed: " + cause, cause);
        } catch (TimeoutException e) {
            sink.cancel();
            throw new java.net.http.HttpTimeoutException("request body not produced in time");
        } catch (InterruptedException e) {
            sink.cancel();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while sending the request body");
        }
        if (chunked) {
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    /** Writes what the publisher hands over straight to the socket's buffer. */
    private static final class Sink implements Flow.Subscriber<ByteBuffer> {
        private final OutputStream out;
        private final boolean chunked;
        private final CompletableFuture<Void> done = new CompletableFuture<>();
        private volatile Flow.Subscription subscription;

        Sink(OutputStream out, boolean chunked) {
            this.out = out;
            this.chunked = chunked;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(ByteBuffer item) {
            if (done.isDone()) {
                return;
            }
            try {
                int n = item.remaining();
                if (n == 0) {
                    return;
                }
                if (chunked) {
                    out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                }
                if (item.hasArray()) {
                    out.write(item.array(), item.arrayOffset() + item.position(), n);
                    item.position(item.limit());
                } else {
                    byte[] copy = new byte[n];
                    item.get(copy);
                    out.write(copy);
                }
                if (chunked) {
                    out.write(CRLF);
                }
            } catch (IOException e) {
                done.completeExceptionally(e);
                cancel();
            }
        }

        @Override
        public void onError(Throwable throwable) {
            done.completeExceptionally(throwable);
        }

        @Override
        public void onComplete() {
            done.complete(null);
        }

        void cancel() {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }
    }
}
