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
import java.util.concurrent.atomic.LongAdder;

/**
 * Adapter type {@code static}: the last-resort tier that closes a chain (DESIGN §5). Answers the
 * last user message from {@link StaticAnswers} when it is a known frequent prompt, else with the
 * degradation notice itself; either way the answer is marked as a fallback with the notice. Calls
 * nothing, costs nothing, is always available. Thread-safe.
 */
public final class StaticChatAdapter implements ChatAdapter {
    private final StaticAnswers answers;
    private final AtomicLong ids = new AtomicLong();
    private final LongAdder prepared = new LongAdder();
    private final LongAdder notices = new LongAdder();

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

    /** How many answers were prepared ones (a known frequent prompt), on this node. */
    public long prepared() {
        return prepared.sum();
    }

    /** How many answers were the degradation notice alone (no prepared answer matched), on this node. */
    public long notices() {
        return notices.sum();
    }

    private ChatCompletion completion(ChatCall call) {
        Optional<String> known = answers.answer(call.request().lastUserText());
        (known.isPresent() ? prepared : notices).increment();
        String text = known.orElse(answers.notice());
        return new ChatCompletion(
                text,
                "stop",
                Optional.of(TokenUsage.NONE),
                Optional.of("static-" + ids.incrementAndGet()),
                Optional.of(answers.notice()));
    }
}
