package io.idem.providers.chat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Splits a server-sent event stream into the {@code data} of each event (lines joined by {@code
 * \n}); comments, {@code event:}, {@code id:} and {@code retry:} lines are skipped. Also reads
 * NDJSON, one line per event, with {@link #ndjson}.
 */
final class SseLines {
    /** Receives each event's data; returns false to stop reading. */
    @FunctionalInterface
    interface Sink {
        boolean accept(String data);
    }

    private SseLines() {}

    /** Reads events until the sink stops or the stream ends; true if the sink stopped it. */
    static boolean sse(InputStream in, Sink sink) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        StringBuilder data = null;
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null && !sink.accept(data.toString())) {
                    return true;
                }
                data = null;
            } else if (line.startsWith("data:")) {
                String value = line.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                data = data == null
                        ? new StringBuilder(value)
                        : data.append('\n').append(value);
            }
        }
        return data != null && !sink.accept(data.toString());
    }

    /** Reads one JSON value per non-blank line until the sink stops or the stream ends. */
    static boolean ndjson(InputStream in, Sink sink) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        while ((line = reader.readLine()) != null) {
            if (!line.isBlank() && !sink.accept(line)) {
                return true;
            }
        }
        return false;
    }
}
