package io.idem.core.chat;

import io.idem.core.provider.ProviderSettings;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The chat side of the configuration (DESIGN §5): which provider serves each chat model, the
 * providers that only speak chat ({@code openai_chat}, {@code ollama}, {@code static}; the job
 * providers are in {@code Routing}), the answers file of each {@code static} provider, and each
 * lane's policy for unconfirmed attempts. Immutable.
 *
 * @param answersFiles static provider name → its answers file (absent: the built-in demo answers)
 */
public record ChatRouting(
        Map<String, ChatModel> models,
        Map<String, ProviderSettings> chatOnlyProviders,
        Map<String, String> answersFiles,
        Map<String, UnconfirmedPolicy> laneUnconfirmed) {

    public static final ChatRouting NONE = new ChatRouting(Map.of(), Map.of(), Map.of(), Map.of());

    public ChatRouting {
        models = Collections.unmodifiableMap(new LinkedHashMap<>(models));
        chatOnlyProviders = Collections.unmodifiableMap(new LinkedHashMap<>(chatOnlyProviders));
        answersFiles = Map.copyOf(answersFiles);
        laneUnconfirmed = Map.copyOf(laneUnconfirmed);
        models.forEach((name, model) -> {
            if (!name.equals(model.name())) {
                throw new IllegalArgumentException("chat model keyed '" + name + "' is named '" + model.name() + "'");
            }
        });
    }

    public Optional<ChatModel> model(String name) {
        return Optional.ofNullable(models.get(name));
    }

    /** A lane's policy; chat fails over by default, since text is cheap. */
    public UnconfirmedPolicy unconfirmed(String lane) {
        return laneUnconfirmed.getOrDefault(lane, UnconfirmedPolicy.FAILOVER);
    }
}
