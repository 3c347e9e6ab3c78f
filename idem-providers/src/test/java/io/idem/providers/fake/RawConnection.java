package io.idem.providers.fake;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** A hand-driven HTTP/1.1 connection, for what a well-behaved client would never send. */
final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawConnection(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(5_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    RawConnection send(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
        return this;
    }

    /** A status line plus headers (an interim 100 has no body). */
    record Response(int status, Map<String, String> headers, String body) {}

    Response readHead() throws IOException {
        String statusLine = readLine();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new HashMap<>();
        for (String line = readLine(); line != null && !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            headers.put(
                    line.substring(0, colon).toLowerCase(Locale.ROOT),
                    line.substring(colon + 1).strip());
        }
        return new Response(status, headers, "");
    }

    Response read() throws IOException {
        Response head = readHead();
        int length = Integer.parseInt(head.headers().getOrDefault("content-length", "0"));
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        return new Response(head.status(), head.headers(), body);
    }

    /** True when the server ended the connection without sending another byte. */
    boolean closedSilently() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketException reset) {
            return true;
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b >= 0; b = in.read()) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
