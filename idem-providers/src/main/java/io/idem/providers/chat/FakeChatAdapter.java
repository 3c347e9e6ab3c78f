package io.idem.providers.chat;

import io.idem.core.chat.ChatAdapter;
import io.idem.core.chat.ChatCall;
import io.idem.core.chat.ChatReply;
import io.idem.core.chat.ChatStream;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.text.Redactor;
import java.net.http.HttpClient;
import java.util.function.UnaryOperator;

/**
 * The chat side of a {@code fake} provider: {@code POST {base_url}/v1/chat/completions} on a {@link
 * io.idem.providers.fake.FakeVendorServer}, which speaks OpenAI's chat protocol, with the call's
 * {@code simulate} directive in {@code X-Idem-Simulate}. Classified exactly as {@code openai_chat}.
 * Thread-safe.
 */
public final class FakeChatAdapter implements ChatAdapter {
    private final OpenAiChatAdapter wire;

    public FakeChatAdapter(ProviderSettings settings, HttpClient client) {
        this(settings, client, System::getenv, Redactor.shapesOnly());
    }

    /**
     * @param environment where the key is read, if the provider names one
     * @param redactor hides the node's secrets in whatever the vendor says
     */
    public FakeChatAdapter(
            ProviderSettings settings, HttpClient client, UnaryOperator<String> environment, Redactor redactor) {
        this.wire =
                new OpenAiChatAdapter(settings, client, environment, redactor, "/v1/chat/completions", "/health", true);
    }

    @Override
    public ChatReply complete(ChatCall call) {
        return wire.complete(call);
    }

    @Override
    public ChatStream stream(ChatCall call) {
        return wire.stream(call);
    }

    @Override
    public HealthAnswer health() {
        return wire.health();
    }
}
