package io.idem.providers.http.wire;

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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw-socket HTTP/1.1 server for {@link Http1ClientTest}, written from RFC 9112 so that it can
 * frame answers every way servers do (length, chunks, until close) and misbehave on cue. Each
 * request is answered by the {@link Script}; it counts connections and keeps every request it read.
 */
final class WireStandIn implements AutoCloseable {
    /** One request as read: its head lines and its body. */
    record Request(String line, List<String> headers, String body) {
        String header(String name) {
            String prefix = name.toLowerCase(Locale.ROOT) + ":";
            return headers.stream()
                    .filter(h -> h.toLowerCase(Locale.ROOT).startsWith(prefix))
                    .map(h -> h.substring(prefix.length()).trim())
                    .findFirst()
                    .orElse(null);
        }
    }

    /** What the server does with a request head; it may read the body itself (see {@link Conn}). */
    @FunctionalInterface
    interface Script {
        /** False: close the connection after this request. */
        boolean serve(Conn conn, Request head) throws IOException;
    }

    /** The connection a script works on. */
    record Conn(InputStream in, OutputStream out, int number) {
        String readBody(Request head) throws IOException {
            String length = head.header("content-length");
            int n = length == null ? 0 : Integer.parseInt(length);
            return new String(in.readNBytes(n), StandardCharsets.UTF_8);
        }

        void write(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        void answer(int status, String body) throws IOException {
            write("HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body);
        }
    }

    private final ServerSocket server;
    private final Script script;
    final AtomicInteger connections = new AtomicInteger();
    final List<Request> requests = new CopyOnWriteArrayList<>();
    final List<String> bodies = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    private WireStandIn(ServerSocket server, Script script) {
        this.server = server;
        this.script = script;
    }

    static WireStandIn start(Script script) {
        try {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            WireStandIn standIn = new WireStandIn(server, script);
            Thread.ofVirtual().start(standIn::accept);
            return standIn;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + path);
    }

    /** Closes every connection the server holds, as a server's idle timeout does. */
    void dropConnections() throws IOException {
        for (Socket socket : open) {
            socket.close();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        dropConnections();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                open.add(socket);
                int number = connections.incrementAndGet();
                Thread.ofVirtual().start(() -> serve(socket, number));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket, int number) {
        try (socket) {
            Conn conn = new Conn(socket.getInputStream(), socket.getOutputStream(), number);
            while (true) {
                Request head = head(conn.in());
                if (head == null) {
                    return;
                }
                requests.add(head);
                if (!script.serve(conn, head)) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away
        } finally {
            open.remove(socket);
        }
    }

    private static Request head(InputStream in) throws IOException {
        String line = line(in);
        if (line == null) {
            return null;
        }
        List<String> headers = new CopyOnWriteArrayList<>();
        for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
            headers.add(h);
        }
        return new Request(line, headers, "");
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                return null;
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }
}
