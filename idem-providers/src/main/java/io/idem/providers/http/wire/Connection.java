package io.idem.providers.http.wire;

import java.io.BufferedOutputStream;
import java.io.IOException;
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
    /** The TCP connection under any TLS: closing it ends every read and write at once, from any thread. */
    private final SocketChannel tcp;

    private final Socket socket;
    final WireInput in;
    final OutputStream out;
    private volatile boolean closed;
    /** When this connection went back to the pool, and until when it may be taken again. */
    private long idleUntilNanos;

    private Connection(Route route, SocketChannel tcp, Socket socket) throws IOException {
        this.route = route;
        this.tcp = tcp;
        this.socket = socket;
        this.in = new WireInput(socket.getInputStream(), BUFFER);
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
            secure.setSoTimeout(0); // reads from here on are bounded by ReadDeadlines
            return new Connection(route, channel, secure);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    Route route() {
        return route;
    }

    /** A blocking read on this connection, bounded or not. */
    @FunctionalInterface
    interface Read<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code read}, which must end by {@code deadline} ({@code System.nanoTime()}; 0: no limit).
     * Past the deadline the connection is closed ({@link ReadDeadlines}) and this throws {@link
     * SocketTimeoutException}, also when the read had just ended as the deadline passed.
     */
    <T> T readBy(long deadline, Read<T> read) throws IOException {
        if (deadline == 0) {
            return read.run();
        }
        if (deadline - System.nanoTime() > 0) {
            ReadDeadlines.Watch watch = ReadDeadlines.SHARED.watch(this, deadline);
            try {
                T value = read.run();
                if (!watch.fired()) {
                    return value;
                }
            } catch (IOException e) {
                if (!watch.fired()) {
                    throw e;
                }
            } finally {
                watch.close();
            }
        }
        sever();
        throw new SocketTimeoutException("read timed out");
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
        if (route.secure()) {
            return true;
        }
        try {
            tcp.configureBlocking(false);
            int read = tcp.read(ByteBuffer.allocate(1));
            tcp.configureBlocking(true);
            return read == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether the server sent bytes past the answer just read that are already buffered: the stream
     * is out of step, never reuse it. Bytes still in the kernel are found by {@link #stillUsable()}
     * before the next request, so this asks the kernel nothing.
     */
    boolean hasUnreadBytes() {
        return in.buffered() > 0;
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Closes the TCP connection under any TLS without a word to the peer: ends a blocked read or
     * write at once and never blocks itself (a TLS close may wait to write its close_notify).
     */
    void sever() {
        closed = true;
        try {
            tcp.close();
        } catch (IOException e) {
            // closing is best effort: the connection is gone either way
        }
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
