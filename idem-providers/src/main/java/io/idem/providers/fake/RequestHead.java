package io.idem.providers.fake;

import io.idem.providers.http.wire.WireInput;
import java.io.EOFException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The request line and headers of one HTTP/1.1 request, as read off the socket.
 *
 * @param headers lower-cased names; repeated headers joined with {@code ", "}
 */
record RequestHead(String method, String path, Map<String, String> query, Map<String, String> headers, boolean http11) {

    private static final int MAX_LINE = 8192;
    private static final int MAX_HEADERS = 100;
    private static final Pattern METHOD = Pattern.compile("[A-Z]{1,16}");
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,12}");
    /** The fake vendor takes small JSON bodies only. */
    static final long MAX_BODY = 1 << 20;

    RequestHead {
        query = Map.copyOf(query);
        headers = Map.copyOf(headers);
    }

    Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }

    boolean expectsContinue() {
        return header("expect").map(v -> v.equalsIgnoreCase("100-continue")).orElse(false);
    }

    boolean keepAlive() {
        String connection = header("connection").orElse("").toLowerCase(Locale.ROOT);
        return http11 ? !connection.contains("close") : connection.contains("keep-alive");
    }

    /** The announced body length; 0 when there is none. */
    long contentLength() throws MalformedRequestException {
        if (headers.containsKey("transfer-encoding")) {
            throw new MalformedRequestException(411, "length_required", "send the body with a Content-Length");
        }
        String value = headers.get("content-length");
        if (value == null) {
            return 0;
        }
        if (!DIGITS.matcher(value).matches()) {
            throw new MalformedRequestException(400, "bad_content_length", "Content-Length is not a number");
        }
        long length = Long.parseLong(value);
        if (length > MAX_BODY) {
            throw new MalformedRequestException(413, "payload_too_large", "body exceeds " + MAX_BODY + " bytes");
        }
        return length;
    }

    /** Reads the next request head, or {@code null} when the client closed between requests. */
    static RequestHead read(WireInput in) throws IOException, MalformedRequestException {
        String requestLine = readLine(in);
        // RFC 9112 §2.2: ignore empty lines before the request line.
        while (requestLine != null && requestLine.isEmpty()) {
            requestLine = readLine(in);
        }
        if (requestLine == null) {
            return null;
        }
        String[] parts = requestLine.split(" ", -1);
        if (parts.length != 3
                || !parts[2].startsWith("HTTP/1.")
                || !METHOD.matcher(parts[0]).matches()) {
            throw new MalformedRequestException(400, "bad_request_line", "not an HTTP/1.x request line");
        }
        Map<String, String> headers = readHeaders(in);
        URI target = target(parts[1]);
        return new RequestHead(
                parts[0], target.getRawPath(), query(target.getRawQuery()), headers, parts[2].equals("HTTP/1.1"));
    }

    private static Map<String, String> readHeaders(WireInput in) throws IOException, MalformedRequestException {
        Map<String, String> headers = new HashMap<>();
        for (int count = 0; ; count++) {
            String line = readLine(in);
            if (line == null) {
                throw new IOException("client closed inside the request head");
            }
            if (line.isEmpty()) {
                return headers;
            }
            int colon = line.indexOf(':');
            if (count >= MAX_HEADERS || colon <= 0 || line.substring(0, colon).isBlank()) {
                throw new MalformedRequestException(400, "bad_header", "malformed or too many header lines");
            }
            String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            headers.merge(name, value, (a, b) -> a + ", " + b);
        }
    }

    private static URI target(String raw) throws MalformedRequestException {
        try {
            URI uri = new URI(raw);
            if (uri.getRawPath() == null || !uri.getRawPath().startsWith("/")) {
                throw new MalformedRequestException(400, "bad_target", "request target must be a path");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new MalformedRequestException(400, "bad_target", "request target is not a URI");
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            query.putIfAbsent(decode(name), decode(value));
        }
        return query;
    }

    private static String decode(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return raw;
        }
    }

    /** One line without its CR LF (a bare LF is accepted), or null on end of stream before any byte. */
    private static String readLine(WireInput in) throws IOException, MalformedRequestException {
        try {
            return in.readLine(MAX_LINE, "the request head");
        } catch (EOFException e) {
            return null;
        } catch (WireInput.LineTooLongException e) {
            throw new MalformedRequestException(431, "header_too_large", "a request line or header is too long");
        }
    }
}
