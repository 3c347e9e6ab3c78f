package io.idem.server.models;

import io.idem.core.chat.ChatModel;
import io.idem.core.domain.JobKind;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.routing.Eligibility;
import io.idem.core.routing.Routing;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The models a key may use, for {@code GET /v1/models}: the chat models the node offers, then the
 * job models (each job provider's Idem model names and its default model) of the lanes the key may
 * use, from the providers that could serve it (enabled, keyed, in its jurisdiction). Adult lanes
 * are left out: no output moderation ships in this build, so they are closed to every key. Pure and
 * thread-safe.
 */
public final class ModelCatalog {
    private final Routing routing;
    private final Eligibility eligibility;
    private final Collection<ChatModel> chatModels;
    private final Function<String, ProviderSettings> chatProvider;

    /** {@code chatProvider}: the settings of the provider serving a chat model. */
    public ModelCatalog(
            Routing routing,
            Eligibility eligibility,
            Collection<ChatModel> chatModels,
            Function<String, ProviderSettings> chatProvider) {
        this.routing = routing;
        this.eligibility = eligibility;
        this.chatModels = List.copyOf(chatModels);
        this.chatProvider = chatProvider;
    }

    /**
     * One provider serving a model.
     *
     * @param vendorModel the id the vendor knows the model by
     * @param lanes the lanes through which the key reaches it (none for chat: lanes do not restrict chat)
     * @param kinds what it makes through this provider ({@code chat}, {@code image}, {@code video})
     */
    public record Offer(
            String provider,
            String adapter,
            String vendorModel,
            List<String> lanes,
            List<String> kinds,
            Optional<Capabilities> capabilities) {}

    /** A model the key may use, with every provider that serves it to the key, in routing order. */
    public record Model(String id, List<Offer> offers) {
        public Model {
            offers = List.copyOf(offers);
        }
    }

    /** Every model a caller from {@code jurisdiction} may use: chat first, then the job models. */
    public List<Model> visibleTo(Optional<String> jurisdiction) {
        Map<String, List<Offer>> byId = new LinkedHashMap<>();
        for (ChatModel model : chatModels) {
            ProviderSettings p = chatProvider.apply(model.provider());
            byId.computeIfAbsent(model.name(), id -> new ArrayList<>())
                    .add(new Offer(
                            p.name(), p.adapter(), model.vendorModel(), List.of(), List.of("chat"), Optional.empty()));
        }
        Map<String, Set<String>> lanesOf = usableLanes(jurisdiction);
        lanesOf.forEach((provider, lanes) -> {
            ProviderSettings p = routing.providers().get(provider);
            for (String id : jobModelIds(p)) {
                byId.computeIfAbsent(id, any -> new ArrayList<>())
                        .add(new Offer(
                                provider,
                                p.adapter(),
                                p.vendorModel(id),
                                List.copyOf(lanes),
                                kinds(p.capabilities()),
                                Optional.of(p.capabilities())));
            }
        });
        List<Model> out = new ArrayList<>();
        byId.forEach((id, offers) -> out.add(new Model(id, offers)));
        return out;
    }

    /** The model {@code id}, if a caller from {@code jurisdiction} may use it. */
    public Optional<Model> find(String id, Optional<String> jurisdiction) {
        return visibleTo(jurisdiction).stream().filter(m -> m.id().equals(id)).findFirst();
    }

    /** Provider → the non-adult lanes that reach it, for the providers the caller could use. */
    private Map<String, Set<String>> usableLanes(Optional<String> jurisdiction) {
        Map<String, Set<String>> lanesOf = new LinkedHashMap<>();
        routing.lanes().forEach((lane, members) -> {
            if (routing.adultLanes().contains(lane)) {
                return;
            }
            for (String provider : members) {
                if (eligibility.standing(provider, jurisdiction).isEmpty()) {
                    lanesOf.computeIfAbsent(provider, any -> new LinkedHashSet<>())
                            .add(lane);
                }
            }
        });
        return lanesOf;
    }

    private static List<String> jobModelIds(ProviderSettings p) {
        Set<String> ids = new LinkedHashSet<>();
        ids.add(p.defaultModel());
        ids.addAll(new java.util.TreeSet<>(p.models().keySet()));
        return List.copyOf(ids);
    }

    private static List<String> kinds(Capabilities capabilities) {
        return Arrays.stream(JobKind.values())
                .filter(k ->
                        capabilities.kinds().isEmpty() || capabilities.kinds().contains(k))
                .map(JobKind::wire)
                .toList();
    }
}
