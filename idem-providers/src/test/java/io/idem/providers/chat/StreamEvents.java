package io.idem.providers.chat;

import io.idem.core.chat.ChatEvent;
import io.idem.core.chat.ChatStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Reads a chat stream to its end for a test: every event, the terminal one last. */
final class StreamEvents {
    private StreamEvents() {}

    /** Every event up to and including the first that is not a token; then the stream is closed. */
    static List<ChatEvent> drain(ChatStream stream) throws InterruptedException {
        List<ChatEvent> events = new ArrayList<>();
        while (true) {
            ChatEvent event = stream.next(Duration.ofSeconds(5)).orElseThrow();
            events.add(event);
            if (!(event instanceof ChatEvent.Token)) {
                stream.close();
                return events;
            }
        }
    }
}
