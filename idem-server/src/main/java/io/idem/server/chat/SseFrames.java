package io.idem.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.http.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Writes server-sent event frames ({@code data: …\n\n}) and flushes each, so it leaves at once. */
final class SseFrames {
    private static final byte[] PREFIX = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

    private final OutputStream out;

    SseFrames(OutputStream out) {
        this.out = out;
    }

    void data(JsonNode frame) throws IOException {
        out.write(PREFIX);
        out.write(Json.MAPPER.writeValueAsBytes(frame));
        out.write(END);
        out.flush();
    }

    void done() throws IOException {
        out.write(DONE);
        out.flush();
    }
}
