package io.idem.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.chat.ChatMessage;
import io.idem.core.chat.ChatRequest;
import io.idem.core.spi.ChatIdempotencyStore;
import io.idem.core.spi.ChatTraffic;
import io.idem.providers.chat.StaticAnswers;
import io.idem.server.http.Json;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps what live models answered to single-turn prompts (one user message, system messages
 * aside), when answer retention is on, for {@code idem static build}. Off the request path: calls
 * hand answers to a bounded queue that one thread writes in batches; a full queue drops the
 * newest (these are statistics, not records anyone is billed by). Answers of the static tier and
 * degraded answers are not kept, nor prompts or answers too long for a static answers file.
 * Thread-safe.
 */
public final class TrafficRecorder implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TrafficRecorder.class);
    static final int MAX_PROMPT = 500;
    static final int MAX_ANSWER = 8000;
    private static final int QUEUE = 10_000;

    private final ChatTraffic store;
    private final InstantSource clock;
    private final Set<String> staticModels;
    private final BlockingQueue<ChatTraffic.Served> queue;
    private final Thread writer;
    private volatile boolean closing;

    private TrafficRecorder(ChatTraffic store, InstantSource clock, Set<String> staticModels, boolean on) {
        this.store = store;
        this.clock = clock;
        this.staticModels = Set.copyOf(staticModels);
        this.queue = on ? new ArrayBlockingQueue<>(QUEUE) : null;
        this.writer = on ? Thread.ofVirtual().name("idem-chat-traffic").start(this::drain) : null;
    }

    /** Keeps nothing. */
    public static TrafficRecorder off() {
        return new TrafficRecorder(null, null, Set.of(), false);
    }

    /** Keeps answers in {@code store}; {@code staticModels} are the models of static tiers. */
    public static TrafficRecorder start(ChatTraffic store, InstantSource clock, Set<String> staticModels) {
        return new TrafficRecorder(store, clock, staticModels, true);
    }

    /** A call answered {@code answer} to {@code request}: kept if it is a live model's single-turn answer. */
    void answered(ChatRequest request, ChatIdempotencyStore.Answer answer) {
        if (queue == null || answer.status() != 200 || staticModels.contains(answer.servedModel())) {
            return;
        }
        String prompt = singleTurnPrompt(request.messages());
        if (prompt == null) {
            return;
        }
        String text = liveText(answer.response());
        String key = StaticAnswers.normalize(prompt);
        if (text == null
                || text.isBlank()
                || text.length() > MAX_ANSWER
                || key.isEmpty()
                || key.length() > MAX_PROMPT) {
            return;
        }
        if (!queue.offer(new ChatTraffic.Served(key, prompt.strip(), text, answer.servedModel(), clock.instant()))) {
            log.debug("chat traffic queue full; an answer was not kept");
        }
    }

    /** The one user message of a conversation that has no other turns, or null. */
    private static String singleTurnPrompt(List<ChatMessage> messages) {
        String prompt = null;
        for (ChatMessage message : messages) {
            switch (message.role()) {
                case "system", "developer" -> {}
                case "user" -> {
                    if (prompt != null) {
                        return null;
                    }
                    prompt = message.content();
                }
                default -> {
                    return null;
                }
            }
        }
        return prompt;
    }

    /** The answer's text, or null when it is no plain text answer of a live model. */
    private static String liveText(String response) {
        try {
            JsonNode body = Json.MAPPER.readTree(response);
            JsonNode message = body.path("choices").path(0).path("message");
            if (body.path("idem").path("is_fallback").asBoolean(false) || message.has("tool_calls")) {
                return null;
            }
            return message.path("content").isTextual() ? message.get("content").asText() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private void drain() {
        List<ChatTraffic.Served> batch = new ArrayList<>();
        while (!closing || !queue.isEmpty()) {
            try {
                ChatTraffic.Served first = queue.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, 999);
                store.record(batch);
            } catch (InterruptedException e) {
                closing = true;
            } catch (RuntimeException e) {
                log.warn("could not keep {} chat answers for the static tier: {}", batch.size(), e.toString());
            }
            batch.clear();
        }
    }

    /** Writes what is queued, then stops. */
    @Override
    public void close() {
        if (writer == null) {
            return;
        }
        closing = true;
        try {
            writer.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
