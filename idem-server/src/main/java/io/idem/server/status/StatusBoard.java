package io.idem.server.status;

import io.idem.core.chat.ChatModel;
import io.idem.core.domain.JobKind;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.EventReads;
import io.idem.core.status.ProviderSignals;
import io.idem.core.status.Standing;
import io.idem.core.status.StatusRollup;
import io.idem.server.providers.ProviderFacts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What customers are told: how each service (a lane's job kind, and chat) stands, from the
 * providers serving it (their shared breakers, the vendors' rate limits, daily budgets and health
 * checks) and since when, from the provider event log. It names no provider. A board is reused for
 * a second, so the public page cannot make every request a database read. Thread-safe.
 */
public final class StatusBoard {
    static final String CHAT = "chat";
    private static final Duration FRESH = Duration.ofSeconds(1);
    private static final String RATE_LIMITED = "provider.rate_limited";
    private static final String EXHAUSTED = "budget.exhausted";
    private static final Set<String> BREAKER_EVENTS = Set.of("breaker.open", "breaker.half_open", "breaker.closed");

    private final ProviderFacts facts;
    private final EventReads events;
    private final List<Offer> offers;
    private final Set<String> involved;
    private volatile Board last;

    /** A service and the enabled providers that can serve it ({@code lane} empty: chat, which has none). */
    record Offer(Optional<String> lane, String kind, List<String> providers) {}

    /** One service's standing. */
    public record Service(Optional<String> lane, String kind, Standing standing) {}

    /** Every service, their combined standing, and when it was read. */
    public record Board(Standing overall, List<Service> services, Instant at) {}

    public StatusBoard(ProviderFacts facts, Collection<ChatModel> chatModels, EventReads events) {
        this.facts = facts;
        this.events = events;
        this.offers = offers(facts, chatModels);
        Set<String> all = new LinkedHashSet<>();
        offers.forEach(o -> all.addAll(o.providers()));
        this.involved = Set.copyOf(all);
    }

    /** The services in lane order, each job kind a lane's providers make, then chat if it is offered. */
    static List<Offer> offers(ProviderFacts facts, Collection<ChatModel> chatModels) {
        Map<String, ProviderSettings> settings = facts.providers();
        List<Offer> offers = new ArrayList<>();
        facts.routing().lanes().forEach((lane, members) -> {
            List<ProviderSettings> enabled = members.stream()
                    .map(settings::get)
                    .filter(ProviderSettings::enabled)
                    .toList();
            Set<JobKind> kinds = EnumSet.noneOf(JobKind.class);
            members.forEach(m -> kinds.addAll(kindsOf(settings.get(m))));
            for (JobKind kind : kinds) {
                List<String> serving = enabled.stream()
                        .filter(p -> kindsOf(p).contains(kind))
                        .map(ProviderSettings::name)
                        .toList();
                offers.add(new Offer(Optional.of(lane), kind.wire(), serving));
            }
        });
        List<String> chat = chatModels.stream()
                .map(ChatModel::provider)
                .distinct()
                .filter(p -> settings.containsKey(p) && settings.get(p).enabled())
                .toList();
        if (!chatModels.isEmpty()) {
            offers.add(new Offer(Optional.empty(), CHAT, chat));
        }
        return List.copyOf(offers);
    }

    /**
     * The kinds a provider is listed for: those it declares; one that declares none takes any kind,
     * and is listed for a request's default kind, {@code image}.
     */
    private static Set<JobKind> kindsOf(ProviderSettings settings) {
        Set<JobKind> declared = settings.capabilities().kinds();
        return declared.isEmpty() ? EnumSet.of(JobKind.IMAGE) : declared;
    }

    /** The current board: read afresh when the last one is more than a second old. */
    public Board board() {
        Instant now = facts.clock().instant();
        Board board = last;
        if (board == null || !now.isBefore(board.at().plus(FRESH)) || now.isBefore(board.at())) {
            board = read(now);
            last = board;
        }
        return board;
    }

    private Board read(Instant now) {
        Set<String> types = new LinkedHashSet<>(BREAKER_EVENTS);
        types.add(RATE_LIMITED);
        types.add(EXHAUSTED);
        Map<String, Map<String, Instant>> history = events.lastProviderEvents(involved, types);
        Map<String, Standing> providers = new HashMap<>();
        for (String provider : involved) {
            providers.put(
                    provider,
                    signals(provider, history.getOrDefault(provider, Map.of())).standing(now));
        }
        List<Service> services = new ArrayList<>();
        for (Offer offer : offers) {
            List<Standing> serving =
                    offer.providers().stream().map(providers::get).toList();
            services.add(new Service(offer.lane(), offer.kind(), StatusRollup.service(serving)));
        }
        Standing overall =
                StatusRollup.service(services.stream().map(Service::standing).toList());
        return new Board(overall, List.copyOf(services), now);
    }

    private ProviderSignals signals(String provider, Map<String, Instant> history) {
        Optional<Instant> breakerSince = BREAKER_EVENTS.stream()
                .map(history::get)
                .filter(java.util.Objects::nonNull)
                .max(Instant::compareTo);
        return new ProviderSignals(
                facts.gate().breakers().snapshot(provider),
                breakerSince,
                Optional.ofNullable(history.get(RATE_LIMITED)),
                facts.gate().budgets().status(provider).exhausted(),
                Optional.ofNullable(history.get(EXHAUSTED)),
                facts.health(provider)
                        .map(r -> new ProviderSignals.Check(r.answer().healthy(), r.since())));
    }
}
