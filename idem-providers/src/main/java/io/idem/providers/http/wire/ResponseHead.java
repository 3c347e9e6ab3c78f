package io.idem.providers.http.wire;

import java.io.EOFException;
import java.io.IOException;
import java.net.ProtocolException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** A response's status line and headers, as read off the wire. */
record ResponseHead(int status, HttpClient.Version version, HttpHeaders headers, boolean legacy)
        implements HttpResponse.ResponseInfo {
    private static final int MAX_LINE = 16 * 1024;
    private static final int MAX_HEADERS = 256;

    @Override
    public int statusCode() {
        return status;
    }

    /**
     * Reads one head. {@link EOFException} when the connection ended before its first byte, so a
     * caller can tell "nothing came back" from a broken answer.
     */
    static ResponseHead read(WireInput in) throws IOException {
        String statusLine = in.readLine(MAX_LINE, "any answer");
        if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12 || statusLine.charAt(8) != ' ') {
            throw new ProtocolException("not an HTTP/1.x status line: " + printable(statusLine));
        }
        int status;
        try {
            status = Integer.parseInt(statusLine.substring(9, 12));
        } catch (NumberFormatException e) {
            throw new ProtocolException("bad status code in: " + printable(statusLine));
        }
        HttpClient.Version version = HttpClient.Version.HTTP_1_1;
        Map<String, List<String>> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int count = 0; ; count++) {
            String field = line(in);
            if (field.isEmpty()) {
                break;
            }
            if (count == MAX_HEADERS) {
                throw new ProtocolException("more than " + MAX_HEADERS + " response headers");
            }
            int colon = field.indexOf(':');
            if (colon <= 0) {
                throw new ProtocolException("malformed response header: " + printable(field));
            }
            fields.computeIfAbsent(field.substring(0, colon).trim(), k -> new ArrayList<>(1))
                    .add(field.substring(colon + 1).trim());
        }
        return new ResponseHead(
                status, version, HttpHeaders.of(fields, (name, value) -> true), statusLine.startsWith("HTTP/1.0"));
    }

    /** Whether the connection ends with this answer: the server said so, or spoke HTTP/1.0 without keep-alive. */
    boolean closes() {
        List<String> connection = headers.allValues("connection");
        if (connection.stream().anyMatch(v -> v.toLowerCase(Locale.ROOT).contains("close"))) {
            return true;
        }
        return legacy
                && connection.stream().noneMatch(v -> v.toLowerCase(Locale.ROOT).contains("keep-alive"));
    }

    /** The server's {@code Keep-Alive: timeout=N}, in seconds, or -1. */
    long keepAliveSeconds() {
        for (String value : headers.allValues("keep-alive")) {
            for (String part : value.split(",")) {
                String p = part.trim().toLowerCase(Locale.ROOT);
                if (p.startsWith("timeout=")) {
                    try {
                        return Long.parseLong(p.substring("timeout=".length()).trim());
                    } catch (NumberFormatException e) {
                        return -1;
                    }
                }
            }
        }
        return -1;
    }

    /** A header line: the connection ending here is never "no answer at all". */
    private static String line(WireInput in) throws IOException {
        try {
            return in.readLine(MAX_LINE, "the response head");
        } catch (EOFException e) {
            throw new ProtocolException("connection closed inside the response head");
        }
    }

    private static String printable(String text) {
        String cut = text.length() > 80 ? text.substring(0, 80) : text;
        return new String(cut.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.US_ASCII)
                .replaceAll("[^\\x20-\\x7e]", "?");
    }
}
