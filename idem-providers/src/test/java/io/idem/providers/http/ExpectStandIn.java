package io.idem.providers.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A raw-socket HTTP/1.1 vendor for {@code Expect: 100-continue} (RFC 9110 §10.1.1), written from
 * the RFC rather than from a library, so that it can do what servers do and libraries hide: ignore
 * {@code Expect}, refuse it with {@code 417}, answer the head with a final status, or take the body
 * and drop the connection. It answers a request it read in full with an OpenAI-style chat
 * completion, and counts what it received: every head, every body read in full, and every byte that
 * reached it on a connection whose head asked for {@code 100} and was never given one.
 */
public final class ExpectStandIn implements AutoCloseable {
    /** What the stand-in does with a head that carries {@code Expect: 100-continue}. */
    public enum Behaviour {
        /** Answers {@code 100}, reads the body, answers 200. */
        CONTINUES,
        /** Never answers {@code 100}; waits for the body and answers 200 once it came. */
        IGNORES_EXPECT,
        /**
         * Answers {@code 100} only after {@link #LATE}, then waits for the body; what arrives counts
         * as unasked (the client had given up on the {@code 100} by then).
         */
        CONTINUES_LATE,
        /** Answers {@code 417 Expectation Failed}; a request without {@code Expect} gets its 200. */
        REFUSES_EXPECT,
        /** Answers the head with {@link #finalStatus} and closes, without reading a body. */
        ANSWERS_HEAD,
        /** Answers {@code 100}, reads the body, then closes without answering. */
        DROPS_AFTER_BODY
    }

    public static final String ANSWER =
            "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                    + "\"message\":{\"role\":\"assistant\",\"content\":\"hello\"},\"finish_reason\":\"stop\"}],"
                    + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"total_tokens\":4}}";

    /** What a request that asked for {@code text/event-stream} is answered with. */
    public static final String STREAM = "data: {\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":"
            + "\"hello\"},\"finish_reason\":null}]}\n\n"
            + "data: {\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"total_tokens\":4}}\n\n"
            + "data: [DONE]\n\n";

    /** How late {@link Behaviour#CONTINUES_LATE} says {@code 100}. */
    public static final Duration LATE = Duration.ofMillis(600);

    private final ServerSocket server;
    private final Behaviour behaviour;
    private final int finalStatus;
    private final AtomicInteger heads = new AtomicInteger();
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final AtomicLong unaskedBytes = new AtomicLong();
    private final AtomicInteger unaskedOpen = new AtomicInteger();

    private ExpectStandIn(Behaviour behaviour, int finalStatus) {
        try {
            this.server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.behaviour = behaviour;
        this.finalStatus = finalStatus;
        Thread.ofVirtual().name("expect-stand-in").start(this::accept);
    }

    public static ExpectStandIn start(Behaviour behaviour) {
        return new ExpectStandIn(behaviour, 0);
    }

    /** A vendor that answers every head that asks for {@code 100} with {@code status}. */
    public static ExpectStandIn answeringHeads(int status) {
        return new ExpectStandIn(Behaviour.ANSWERS_HEAD, status);
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + path);
    }

    /** How many request heads arrived. */
    public int heads() {
        return heads.get();
    }

    /** Every request body read in full, in order. */
    public List<String> bodies() {
        return List.copyOf(bodies);
    }

    /**
     * Body bytes that reached the stand-in on connections that asked for {@code 100} and never got
     * one, once every such connection ended (waits up to {@code patience} for that).
     */
    public long unaskedBodyBytes(Duration patience) throws InterruptedException {
        long until = System.nanoTime() + patience.toNanos();
        while (unaskedOpen.get() > 0 && System.nanoTime() < until) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        if (unaskedOpen.get() > 0) {
            throw new AssertionError("a connection that never got its 100 is still open");
        }
        return unaskedBytes.get();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                Head head = Head.read(in);
                if (head == null) {
                    return;
                }
                heads.incrementAndGet();
                if (!head.expects() ? !answer(in, out, head) : !answerExpecting(socket, in, out, head)) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away; the counts say what arrived
        }
    }

    /** Serves a head that asked for {@code 100}; false when the connection is done. */
    private boolean answerExpecting(Socket socket, InputStream in, OutputStream out, Head head) throws IOException {
        switch (behaviour) {
            case CONTINUES -> {
                write(out, "HTTP/1.1 100 Continue\r\n\r\n");
                return answer(in, out, head);
            }
            case IGNORES_EXPECT -> {
                unaskedOpen.incrementAndGet();
                try {
                    return answer(in, out, head, unaskedBytes);
                } finally {
                    unaskedOpen.decrementAndGet();
                }
            }
            case CONTINUES_LATE -> {
                unaskedOpen.incrementAndGet();
                try {
                    sleep(LATE);
                    write(out, "HTTP/1.1 100 Continue\r\n\r\n");
                    return answer(in, out, head, unaskedBytes);
                } finally {
                    unaskedOpen.decrementAndGet();
                }
            }
            case REFUSES_EXPECT -> {
                write(out, "HTTP/1.1 417 Expectation Failed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                return false;
            }
            case ANSWERS_HEAD -> {
                String error = "{\"error\":{\"message\":\"refused at the head\",\"type\":\"server_error\"}}";
                write(
                        out,
                        "HTTP/1.1 " + finalStatus + " Refused\r\nContent-Type: application/json\r\nContent-Length: "
                                + error.length() + "\r\nConnection: close\r\n\r\n" + error);
                return false;
            }
            case DROPS_AFTER_BODY -> {
                write(out, "HTTP/1.1 100 Continue\r\n\r\n");
                readBody(in, head.contentLength(), new AtomicLong());
                socket.setSoLinger(true, 0);
                return false;
            }
        }
        throw new IllegalStateException("unknown behaviour " + behaviour);
    }

    private boolean answer(InputStream in, OutputStream out, Head head) throws IOException {
        return answer(in, out, head, new AtomicLong());
    }

    private boolean answer(InputStream in, OutputStream out, Head head, AtomicLong counted) throws IOException {
        if (!readBody(in, head.contentLength(), counted)) {
            return false;
        }
        String answer = head.streams() ? STREAM : ANSWER;
        write(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: " + (head.streams() ? "text/event-stream" : "application/json")
                        + "\r\nx-request-id: req-1\r\nContent-Length: " + answer.length() + "\r\n\r\n" + answer);
        return true;
    }

    /** Reads a body of {@code length} bytes, counting each in {@code counted}; false at an early end. */
    private boolean readBody(InputStream in, long length, AtomicLong counted) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (long i = 0; i < length; i++) {
            int b = in.read();
            if (b < 0) {
                return false;
            }
            counted.incrementAndGet();
            body.write(b);
        }
        bodies.add(body.toString(StandardCharsets.UTF_8));
        return true;
    }

    private static void sleep(Duration duration) throws IOException {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** A request head: whether it asks for {@code 100} and for a stream, and its body's length. */
    private record Head(boolean expects, boolean streams, long contentLength) {
        static Head read(InputStream in) throws IOException {
            boolean expects = false;
            boolean streams = false;
            long length = 0;
            String line = line(in);
            if (line == null) {
                return null;
            }
            for (line = line(in); line != null && !line.isEmpty(); line = line(in)) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("expect:")) {
                    expects = lower.substring(7).trim().equals("100-continue");
                } else if (lower.startsWith("accept:")) {
                    streams = lower.contains("text/event-stream");
                } else if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(lower.substring(15).trim());
                }
            }
            return line == null ? null : new Head(expects, streams, length);
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder line = new StringBuilder();
            for (int b = in.read(); b >= 0; b = in.read()) {
                if (b == '\n') {
                    int end = line.length();
                    return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
                }
                line.append((char) b);
            }
            return null;
        }
    }
}
