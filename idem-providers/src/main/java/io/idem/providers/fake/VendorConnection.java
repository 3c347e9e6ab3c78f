package io.idem.providers.fake;

import io.idem.providers.fake.VendorBodies.ErrorBody;
import io.idem.providers.http.wire.WireInput;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one client connection: HTTP/1.1 requests one after another while the client keeps the
 * connection alive. Runs on its own virtual thread; whatever happens here ends this connection only.
 */
final class VendorConnection implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(VendorConnection.class);
    /** How long an idle keep-alive connection stays open. */
    static final Duration IDLE = Duration.ofMinutes(5);
    /** How long {@code timeout} mode keeps a silent connection before giving up on the client. */
    static final Duration HOLD = Duration.ofMinutes(10);

    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

    private final Socket socket;
    private final VendorRoutes routes;

    VendorConnection(Socket socket, VendorRoutes routes) {
        this.socket = socket;
        this.routes = routes;
    }

    @Override
    public void run() {
        try (socket) {
            socket.setSoTimeout((int) IDLE.toMillis());
            socket.setTcpNoDelay(true);
            WireInput in = new WireInput(socket.getInputStream(), 8192);
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            boolean open = true;
            while (open) {
                open = serveOne(in, out);
            }
        } catch (IOException e) {
            log.debug("fake vendor connection ended: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Serves one request; true if the connection stays open for the next. */
    private boolean serveOne(WireInput in, OutputStream out) throws IOException, InterruptedException {
        RequestHead head;
        try {
            head = RequestHead.read(in);
        } catch (MalformedRequestException e) {
            refuseMalformed(e, out);
            return false;
        }
        if (head == null) {
            return false;
        }
        Body body = new Body(head, in, out);
        Reply reply;
        try {
            reply = routes.handle(head, body);
        } catch (MalformedRequestException e) {
            refuseMalformed(e, out);
            return false;
        } catch (RuntimeException e) {
            log.warn("fake vendor failed on {} {}", head.method(), head.path(), e);
            WireResponse.json(500, ErrorBody.of("internal_error", "the fake vendor failed"))
                    .writeTo(out, false);
            return false;
        }
        return switch (reply) {
            case Reply.Answer answer -> {
                boolean keepAlive = head.keepAlive() && body.settle();
                answer.response().writeTo(out, keepAlive);
                yield keepAlive;
            }
            case Reply.Reset reset -> {
                // SO_LINGER 0 makes close() send RST: the client sees the connection die, not end.
                socket.setSoLinger(true, 0);
                socket.close();
                yield false;
            }
            case Reply.Stream stream -> {
                stream.streamer().write(out);
                out.flush();
                yield false;
            }
            case Reply.Hold hold -> {
                holdUntilClientLeaves(in);
                yield false;
            }
        };
    }

    private static void refuseMalformed(MalformedRequestException e, OutputStream out) throws IOException {
        WireResponse.json(e.status(), ErrorBody.of(e.code(), e.getMessage())).writeTo(out, false);
    }

    /** Stays silent until the client closes (read sees end of stream or a reset) or {@link #HOLD} passes. */
    private void holdUntilClientLeaves(InputStream in) throws IOException {
        long deadline = System.nanoTime() + HOLD.toNanos();
        byte[] discard = new byte[1024];
        try {
            while (System.nanoTime() < deadline) {
                socket.setSoTimeout((int) Math.max(
                        1, Duration.ofNanos(deadline - System.nanoTime()).toMillis()));
                if (in.read(discard) < 0) {
                    return;
                }
            }
        } catch (SocketTimeoutException e) {
            log.debug("fake vendor gave up holding a silent connection");
        }
    }

    /** The current request's body, read only when a handler asks for it. */
    private static final class Body implements RequestBody {
        private final RequestHead head;
        private final InputStream in;
        private final OutputStream out;
        private boolean consumed;

        Body(RequestHead head, InputStream in, OutputStream out) {
            this.head = head;
            this.in = in;
            this.out = out;
        }

        @Override
        public byte[] read() throws IOException, MalformedRequestException {
            return read(true);
        }

        @Override
        public byte[] readIgnoringExpect() throws IOException, MalformedRequestException {
            return read(false);
        }

        private byte[] read(boolean answerExpect) throws IOException, MalformedRequestException {
            if (consumed) {
                throw new IllegalStateException("the request body was already read");
            }
            long length = head.contentLength();
            if (answerExpect && head.expectsContinue() && length > 0) {
                out.write(CONTINUE);
                out.flush();
            }
            byte[] bytes = in.readNBytes((int) length);
            if (bytes.length < length) {
                throw new EOFException("client closed inside the body");
            }
            consumed = true;
            return bytes;
        }

        /**
         * Gets the stream past this request's body so the next request can be read; false when that
         * is impossible and the connection must close after the answer. A client that asked for
         * {@code 100 Continue} and did not get it may or may not send its body (RFC 9110 §10.1.1),
         * so only closing keeps the framing unambiguous.
         */
        boolean settle() throws IOException {
            if (consumed) {
                return true;
            }
            try {
                long length = head.contentLength();
                if (length == 0) {
                    return true;
                }
                if (head.expectsContinue()) {
                    return false;
                }
                read();
                return true;
            } catch (MalformedRequestException e) {
                return false;
            }
        }
    }
}
