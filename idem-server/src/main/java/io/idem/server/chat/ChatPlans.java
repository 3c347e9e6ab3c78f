package io.idem.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.chat.Chain;
import io.idem.core.chat.ChatModel;
import io.idem.core.chat.ChatRouting;
import io.idem.server.http.ApiError;
import io.idem.server.http.Caller;
import io.idem.server.http.KeyBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a chat body would do, for {@code POST /v1/route/check}: the chain it resolves to (the same
 * reading and {@code ChainPlanner} as {@code POST /v1/chat/completions}, the key's defaults
 * included), each model's provider, the deadline split, and whether the key's budget would refuse
 * the call. Calls nothing, writes nothing. Thread-safe.
 */
public final class ChatPlans {
    private final ChatRequestReader reader;
    private final Map<String, ChatModel> models;
    private final ChatRouting routing;
    private final KeyBudget budget;

    ChatPlans(ChatRequestReader reader, Map<String, ChatModel> models, ChatRouting routing, KeyBudget budget) {
        this.reader = reader;
        this.models = Map.copyOf(models);
        this.routing = routing;
        this.budget = budget;
    }

    /** A body is a chat body when it carries {@code messages} (a job body never does). */
    public static boolean isChat(JsonNode body) {
        return body.has("messages");
    }

    /**
     * One model of the chain with its share of the deadline in the worst case: it starts once every
     * model before it used its whole timeout, and gets at most what is left of the deadline then.
     *
     * @param startsByMs when it starts at the latest, from the call's start
     * @param effectiveTimeoutMs its timeout cut to what is left of the deadline (0: never reached)
     */
    public record Entry(ChatModel model, Chain.Link link, long startsByMs, long effectiveTimeoutMs) {}

    /**
     * A planned chat call.
     *
     * @param keyBudgetRefusal why the key's budget would refuse the call before any model (none: it would not)
     */
    public record Planned(
            Chain chain, List<Entry> entries, String lane, String unconfirmed, Optional<ApiError> keyBudgetRefusal) {}

    /** @throws ApiError 400 as {@code POST /v1/chat/completions} would answer the body */
    public Planned plan(JsonNode body, Caller caller) {
        ParsedCall call = reader.read(body, FailoverDefaultsJson.of(caller.key().failoverDefaults()));
        Chain chain = call.chain();
        List<Entry> entries = new ArrayList<>();
        long deadline = chain.deadline().toMillis();
        long start = 0;
        for (Chain.Link link : chain.links()) {
            long effective = Math.max(0, Math.min(link.timeout().toMillis(), deadline - start));
            entries.add(new Entry(models.get(link.model()), link, Math.min(start, deadline), effective));
            start += effective;
        }
        Optional<ApiError> refusal = Optional.empty();
        try {
            budget.check(caller);
        } catch (ApiError e) {
            refusal = Optional.of(e);
        }
        return new Planned(
                chain, entries, call.lane(), routing.unconfirmed(call.lane()).wire(), refusal);
    }
}
