package io.idem.providers.fake;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** One complete HTTP/1.1 response, JSON unless a {@code Content-Type} header says otherwise. */
record WireResponse(int status, Map<String, String> headers, byte[] body) {

    WireResponse {
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException("a final response needs a status 200..599, was " + status);
        }
        headers = Map.copyOf(headers);
        Objects.requireNonNull(body, "body");
    }

    static WireResponse json(int status, Object body) {
        return new WireResponse(status, Map.of(), VendorBodies.write(body));
    }

    WireResponse withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new WireResponse(status, more, body);
    }

    void writeTo(OutputStream out, boolean keepAlive) throws IOException {
        StringBuilder head = new StringBuilder(256)
                .append("HTTP/1.1 ")
                .append(status)
                .append(' ')
                .append(reason(status))
                .append("\r\n")
                .append("Content-Type: ")
                .append(headers.getOrDefault("Content-Type", "application/json"))
                .append("\r\n")
                .append("Content-Length: ")
                .append(body.length)
                .append("\r\n")
                .append("Connection: ")
                .append(keepAlive ? "keep-alive" : "close")
                .append("\r\n");
        headers.forEach((name, value) -> {
            if (!name.equals("Content-Type")) {
                head.append(name).append(": ").append(value).append("\r\n");
            }
        });
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 409 -> "Conflict";
            case 411 -> "Length Required";
            case 413 -> "Content Too Large";
            case 429 -> "Too Many Requests";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Status " + status;
        };
    }
}
