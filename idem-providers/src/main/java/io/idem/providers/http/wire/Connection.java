package io.idem.providers.http.wire;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One HTTP/1.1 connection: a blocking socket (TLS for {@code https}) with buffered streams. Used
 * by one exchange at a time; {@link #close()} may come from any thread and unblocks a read or
 * write in progress.
 */
final class Connection implements AutoCloseable {
    private static final int BUFFER = 16 * 1024;

    private final Route route;
    private final SocketChannel channel;
    private final Socket socket;
    final InputStream in;
    final OutputStream out;
    private volatile boolean closed;
    /** When this connection went back to the pool, and until when it may be taken again. */
    private long idleUntilNanos;

    private Connection(Route route, SocketChannel channel, Socket socket) throws IOException {
        this.route = route;
        this.channel = channel;
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), BUFFER);
        this.out = new BufferedOutputStream(socket.getOutputStream(), BUFFER);
    }

    /** Connects within {@code timeout}; TLS connections also finish their handshake within it. */
    static Connection open(Route route, Duration timeout, SSLContext tls) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            Socket plain = channel.socket();
            plain.setTcpNoDelay(true);
            int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            try {
                plain.connect(new InetSocketAddress(route.address(), route.port()), millis);
            } catch (SocketTimeoutException e) {
                throw new HttpConnectTimeoutException("connect timed out after " + millis + " ms");
            }
            if (!route.secure()) {
                return new Connection(route, channel, plain);
            }
            SSLSocket secure =
                    (SSLSocket) tls.getSocketFactory().createSocket(plain, route.address(), route.port(), true);
            // the socket's own parameters already name the host for SNI (JSSE leaves IP literals out)
            SSLParameters parameters = secure.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            parameters.setApplicationProtocols(new String[] {"http/1.1"});
            secure.setSSLParameters(parameters);
            secure.setSoTimeout(millis);
            secure.startHandshake();
            return new Connection(route, null, secure);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    Route route() {
        return route;
    }

    /** Blocks reads for at most {@code millis} from now (0: without limit). */
    void readTimeout(long millis) throws IOException {
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(0, millis)));
    }

    void idleFor(Duration keepAlive) {
        idleUntilNanos = System.nanoTime() + keepAlive.toNanos();
    }

    /**
     * Whether this pooled connection may carry another request: not past its keep-alive, and (plain
     * sockets) the server has neither closed it nor sent anything unasked, checked without blocking.
     * TLS connections are trusted within their keep-alive only: their idle bytes may be the
     * session's own (a ticket), which must not be read past the TLS layer.
     */
    boolean stillUsable() {
        if (closed || System.nanoTime() - idleUntilNanos > 0) {
            return false;
        }
        if (channel == null) {
            return true;
        }
        try {
            channel.configureBlocking(false);
            int read = channel.read(ByteBuffer.allocate(1));
            channel.configureBlocking(true);
            return read == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the server sent bytes past the answer just read: the stream is out of step, never reuse it. */
    boolean hasUnreadBytes() {
        try {
            return in.available() > 0;
        } catch (IOException e) {
            return true;
        }
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            // closing is best effort: the socket is gone either way
        }
    }
}
