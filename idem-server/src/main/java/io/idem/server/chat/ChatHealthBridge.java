package io.idem.server.chat;

import io.idem.core.chat.ChatAdapter;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderAdapter;

/**
 * Lets the health sentinel check a chat-only provider (Ollama's {@code /api/tags}, OpenAI's {@code
 * /models}), so its breaker learns from probes as a job provider's does. It generates nothing.
 */
record ChatHealthBridge(ChatAdapter chat) implements ProviderAdapter {
    @Override
    public Outcome generate(GenerationCall call) {
        return new Outcome.Rejected(RejectionKind.CONFIG, "chat_only", "this provider serves chat only", 0, null);
    }

    @Override
    public HealthAnswer health() {
        return chat.health();
    }
}
