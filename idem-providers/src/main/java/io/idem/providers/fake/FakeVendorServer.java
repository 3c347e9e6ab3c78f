package io.idem.providers.fake;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real HTTP/1.1 image vendor on 127.0.0.1 that acts out the faults Idem must survive (DESIGN §7,
 * "The fake vendor"), and keeps its own invoice to check Idem's audit against.
 *
 * <p>Raw sockets rather than {@code com.sun.net.httpserver}, because that server answers {@code
 * Expect: 100-continue} by itself and cannot drop a connection before reading the body; both are
 * what {@code refuse} must control. One virtual thread per connection; keep-alive; bodies framed by
 * Content-Length only. A malformed request gets a 400 and costs only its own connection.
 *
 * <p>Wire protocol: {@code GET /health}; {@code POST /v1/images/generations} (fault from the {@code
 * X-Idem-Simulate} header); {@code GET /v1/images/generations/{id}}; {@code GET
 * /v1/images/generations?reference=}; {@code POST /v1/images/generations/{id}/cancel}; {@code GET
 * /ledger}; {@code POST /v1/chat/completions} (OpenAI's chat shapes, plain and streaming; see {@code
 * ChatIntake}); videos: {@code POST /v1/videos} (accepted at once, then rendered), {@code GET
 * /v1/videos/{id}}, {@code GET /v1/videos/{id}/content} (a small deterministic MP4), {@code GET
 * /v1/videos?reference=}, {@code POST /v1/videos/{id}/cancel} or {@code DELETE /v1/videos/{id}}.
 * Each image costs {@link #PRICE_PER_IMAGE} USD, each second of video {@link #PRICE_PER_SECOND}.
 *
 * <p>Thread-safe. All state is in memory and dies with the server.
 */
public final class FakeVendorServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FakeVendorServer.class);
    /** What one delivered image costs. */
    public static final BigDecimal PRICE_PER_IMAGE = new BigDecimal("0.04");
    /** What one second of delivered video costs. */
    public static final BigDecimal PRICE_PER_SECOND = new BigDecimal("0.05");
    /** What one million prompt tokens cost on the chat side. */
    public static final BigDecimal CHAT_INPUT_USD_PER_1M = new BigDecimal("1.00");
    /** What one million completion tokens cost on the chat side. */
    public static final BigDecimal CHAT_OUTPUT_USD_PER_1M = new BigDecimal("2.00");

    private final ServerSocket server;
    private final GenerationBook book;
    private final ChatBook chatBook;
    private final VendorRoutes routes;
    private final Set<Socket> openSockets = ConcurrentHashMap.newKeySet();
    private final ExecutorService connections;
    private final Thread acceptor;
    private volatile boolean closed;

    private FakeVendorServer(ServerSocket server, InstantSource clock) {
        this.server = server;
        this.book = new GenerationBook(clock, PRICE_PER_IMAGE, PRICE_PER_SECOND);
        this.chatBook = new ChatBook(clock);
        this.routes = new VendorRoutes(book, chatBook, new ChatIntake(chatBook, clock));
        int port = server.getLocalPort();
        this.connections = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("fake-vendor-" + port + "-", 0).factory());
        this.acceptor =
                Thread.ofVirtual().name("fake-vendor-" + port + "-accept").unstarted(this::acceptLoop);
    }

    /** Starts a vendor on 127.0.0.1:{@code port} ({@code 0}: any free port). */
    public static FakeVendorServer start(int port) {
        return start(port, InstantSource.system());
    }

    /** Starts a vendor whose invoice is timestamped by {@code clock}. */
    public static FakeVendorServer start(int port, InstantSource clock) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
        ServerSocket socket = null;
        try {
            socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 1024);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new UncheckedIOException("cannot start the fake vendor on 127.0.0.1:" + port, e);
        }
        FakeVendorServer vendor = new FakeVendorServer(socket, clock);
        vendor.acceptor.start();
        log.info("fake vendor listening on {}", vendor.baseUrl());
        return vendor;
    }

    public int port() {
        return server.getLocalPort();
    }

    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + port());
    }

    /** Every billed generation, oldest first: the vendor's invoice. */
    public List<LedgerEntry> ledger() {
        return book.ledger();
    }

    /**
     * How many generations this vendor is working on now: a cancel can reach only a call the vendor
     * has received, so tests wait for this before they cancel.
     */
    public long running() {
        return book.running();
    }

    /** Every billed chat completion, oldest first: the chat side's invoice. */
    public List<ChatLedgerEntry> chatLedger() {
        return chatBook.ledger();
    }

    /** Empties the invoices (generations stay known to lookups). For tests. */
    public void resetLedger() {
        book.resetLedger();
        chatBook.reset();
    }

    /** Stops accepting, drops every open connection and waits briefly for their threads. */
    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        openSockets.forEach(FakeVendorServer::closeQuietly);
        connections.shutdownNow();
        try {
            if (!connections.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("fake vendor on port {} left connection threads running", port());
            }
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    log.warn("fake vendor accept failed, continuing: {}", e.toString());
                    pause();
                }
                continue;
            }
            openSockets.add(socket);
            try {
                connections.execute(() -> {
                    try {
                        new VendorConnection(socket, routes).run();
                    } finally {
                        openSockets.remove(socket);
                    }
                });
            } catch (RejectedExecutionException e) {
                // Closing: the executor no longer takes connections.
                openSockets.remove(socket);
                closeQuietly(socket);
            }
        }
    }

    /** Keeps a persistent accept failure (e.g. out of file descriptors) from spinning a core. */
    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            log.debug("ignoring failure while closing: {}", e.toString());
        }
    }
}
