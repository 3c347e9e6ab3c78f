package io.idem.server.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.http.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Sends exact bytes to a server over a plain socket and reads the answer, for requests no HTTP
 * client library will send (broken chunked framing, invalid UTF-8, repeated headers, huge heads).
 */
final class RawHttp {
    private RawHttp() {}

    /** One answer: status, headers (lower-cased names, last value wins) and body. */
    record Answer(int status, Map<String, String> headers, String body) {
        JsonNode json() {
            try {
                return Json.MAPPER.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }
    }

    /** A request head with {@code Connection: close}, the given extra header lines, and {@code body}. */
    static Answer send(String baseUrl, String method, String path, String headerLines, byte[] body) {
        return exchange(URI.create(baseUrl), request(baseUrl, method, path, headerLines, body), false);
    }

    /** As {@link #send}, then closes the sending side: whatever the head declared, nothing more comes. */
    static Answer sendAndStop(String baseUrl, String method, String path, String headerLines, byte[] body) {
        return exchange(URI.create(baseUrl), request(baseUrl, method, path, headerLines, body), true);
    }

    private static byte[] request(String baseUrl, String method, String path, String headerLines, byte[] body) {
        URI base = URI.create(baseUrl);
        String head = method + " " + path + " HTTP/1.1\r\n"
                + "Host: " + base.getHost() + ":" + base.getPort() + "\r\n"
                + "Connection: close\r\n"
                + headerLines
                + "\r\n";
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
        request.writeBytes(body);
        return request.toByteArray();
    }

    /** A JSON POST with a correct Content-Length over {@code body}'s exact bytes. */
    static Answer postBytes(String baseUrl, String path, String key, byte[] body) {
        return send(
                baseUrl,
                "POST",
                path,
                "Authorization: Bearer " + key + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                        + "\r\n",
                body);
    }

    private static Answer exchange(URI base, byte[] request, boolean stopSending) {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            if (stopSending) {
                socket.shutdownOutput();
            }
            return parse(readAll(socket.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
            }
        } catch (java.net.SocketException e) {
            // the server may reset after answering a request it refused to read to the end
        }
        return out.toByteArray();
    }

    private static Answer parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.UTF_8);
        int split = text.indexOf("\r\n\r\n");
        if (split < 0) {
            throw new AssertionError("no complete answer: " + text);
        }
        String[] lines = text.substring(0, split).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(
                    lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).strip());
        }
        String body = text.substring(split + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = unchunk(body);
        }
        return new Answer(status, headers, body);
    }

    private static String unchunk(String chunked) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < chunked.length()) {
            int end = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, end).strip(), 16);
            if (size == 0) {
                break;
            }
            out.append(chunked, end + 2, end + 2 + size);
            at = end + 2 + size + 2;
        }
        return out.toString();
    }
}
