package io.idem.providers.chat;

import io.idem.core.chat.ChatAdapter;
import io.idem.core.chat.ChatCall;
import io.idem.core.chat.ChatCompletion;
import io.idem.core.chat.ChatEvent;
import io.idem.core.chat.ChatReply;
import io.idem.core.chat.ChatStream;
import io.idem.core.chat.TokenUsage;
import io.idem.core.spi.HealthAnswer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Adapter type {@code static}: the last-resort tier that closes a chain (DESIGN §5). Answers the
 * last user message from {@link StaticAnswers} when it is a known frequent prompt, else with the
 * degradation notice itself; either way the answer is marked as a fallback with the notice. Calls
 * nothing, costs nothing, is always available. Thread-safe.
 */
public final class StaticChatAdapter implements ChatAdapter {
    private final StaticAnswers answers;
    private final AtomicLong ids = new AtomicLong();

    public StaticChatAdapter(StaticAnswers answers) {
        this.answers = Objects.requireNonNull(answers, "answers");
    }

    @Override
    public ChatReply complete(ChatCall call) {
        return new ChatReply.Served(completion(call));
    }

    @Override
    public ChatStream stream(ChatCall call) {
        ChatCompletion completion = completion(call);
        List<ChatEvent> events = new ArrayList<>();
        String[] words = completion.text().split(" ");
        for (int i = 0; i < words.length; i++) {
            events.add(new ChatEvent.Token(i == 0 ? words[i] : " " + words[i]));
        }
        events.add(new ChatEvent.Finished(
                completion.finishReason(), completion.usage(), completion.requestId(), completion.degradationNotice()));
        return QueuedChatStream.of(events);
    }

    @Override
    public HealthAnswer health() {
        return new HealthAnswer(true, answers.size() + " static answers");
    }

    private ChatCompletion completion(ChatCall call) {
        String text = answers.answer(call.request().lastUserText()).orElse(answers.notice());
        return new ChatCompletion(
                text,
                "stop",
                Optional.of(TokenUsage.NONE),
                Optional.of("static-" + ids.incrementAndGet()),
                Optional.of(answers.notice()));
    }
}
