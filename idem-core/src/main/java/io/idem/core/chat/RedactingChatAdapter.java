package io.idem.core.chat;

import io.idem.core.spi.HealthAnswer;
import io.idem.core.text.Redactor;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The chat engine's last line of defence against a leaking adapter: a failed reply, a stream's
 * failure event and a health answer pass through the node's {@link Redactor} before the engine
 * audits, logs or answers with them. What a model served (its tokens) is the caller's content and
 * passes unchanged. Thread-safe when the adapter is.
 */
final class RedactingChatAdapter implements ChatAdapter {
    private final ChatAdapter adapter;
    private final Redactor redactor;

    RedactingChatAdapter(ChatAdapter adapter, Redactor redactor) {
        this.adapter = Objects.requireNonNull(adapter, "adapter");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    @Override
    public ChatReply complete(ChatCall call) {
        return switch (adapter.complete(call)) {
            case ChatReply.Served served -> served;
            case ChatReply.Failed failed ->
                new ChatReply.Failed(failed.outcome().redactedBy(redactor));
        };
    }

    @Override
    public ChatStream stream(ChatCall call) {
        return new RedactedStream(adapter.stream(call));
    }

    @Override
    public Optional<String> unhonoured(ChatRequest request) {
        return adapter.unhonoured(request);
    }

    @Override
    public HealthAnswer health() {
        return adapter.health().redactedBy(redactor);
    }

    private final class RedactedStream implements ChatStream {
        private final ChatStream stream;

        RedactedStream(ChatStream stream) {
            this.stream = stream;
        }

        @Override
        public Optional<ChatEvent> next(Duration wait) throws InterruptedException {
            return stream.next(wait).map(event -> switch (event) {
                case ChatEvent.Failed failed ->
                    new ChatEvent.Failed(failed.outcome().redactedBy(redactor));
                case ChatEvent.Token token -> token;
                case ChatEvent.Finished finished -> finished;
            });
        }

        @Override
        public boolean requestSent() {
            return stream.requestSent();
        }

        @Override
        public void close() {
            stream.close();
        }
    }
}
