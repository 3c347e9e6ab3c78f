package io.idem.core.chat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Resolves what a request asked for into a {@link Chain} (DESIGN §5, issue 7). Pure and
 * thread-safe.
 *
 * <p>Precedence: {@code models}, else {@code model} + {@code fallback_models}, else the key's
 * {@code failover_defaults} (starting at {@code model}'s position when the defaults hold it, else
 * with {@code model} in place of the first default, so the last tier, usually {@code static}, stays),
 * else {@code model} alone. {@code models} together with {@code
 * fallback_models} is refused. Duplicates collapse to their first occurrence (with its settings);
 * more than three distinct models the caller spelled out is refused naming the field, while a chain
 * derived from the key's defaults keeps its first three. Settings: an entry's own value, else the
 * request's {@code redundancy}, else the key's defaults, else {@link ChainLimits}' defaults.
 */
public final class ChainPlanner {
    private ChainPlanner() {}

    /** @throws InvalidChainException naming the field when the request cannot form a chain */
    public static Chain plan(ChainAsk ask, Optional<FailoverDefaults> defaults) {
        if (ask.models().isPresent() && ask.fallbackModels().isPresent()) {
            throw new InvalidChainException(
                    "fallback_models",
                    "conflicting_chain_fields",
                    "give either models or model with fallback_models, not both");
        }
        ChainSettings key = defaults.map(FailoverDefaults::settings).orElse(ChainSettings.NONE);
        List<ChainEntry> asked;
        String field;
        boolean derived = false;
        if (ask.models().isPresent()) {
            asked = ask.models().get();
            field = "models";
            if (asked.isEmpty()) {
                throw new InvalidChainException(
                        field, "invalid_models", "models must name 1.." + ChainLimits.MAX_MODELS + " models");
            }
        } else if (ask.fallbackModels().isPresent()) {
            String model = ask.model()
                    .orElseThrow(
                            () -> new InvalidChainException("model", "missing_model", "fallback_models needs a model"));
            asked = new ArrayList<>();
            asked.add(ChainEntry.of(model));
            asked.addAll(ask.fallbackModels().get());
            field = "fallback_models";
        } else if (defaults.isPresent()) {
            asked = fromDefaults(ask.model(), defaults.get().models());
            field = "failover_defaults";
            derived = true;
        } else {
            String model = ask.model()
                    .orElseThrow(() -> new InvalidChainException("model", "missing_model", "model is required"));
            asked = List.of(ChainEntry.of(model));
            field = "model";
        }
        List<ChainEntry> distinct = collapse(asked);
        if (distinct.size() > ChainLimits.MAX_MODELS) {
            if (!derived) {
                throw new InvalidChainException(
                        field,
                        "too_many_models",
                        "a chain has at most " + ChainLimits.MAX_MODELS + " distinct models, " + field + " gives "
                                + distinct.size());
            }
            distinct = distinct.subList(0, ChainLimits.MAX_MODELS);
        }
        return resolve(distinct, ask.redundancy(), key);
    }

    private static List<ChainEntry> fromDefaults(Optional<String> model, List<ChainEntry> defaults) {
        if (model.isEmpty()) {
            return defaults;
        }
        for (int i = 0; i < defaults.size(); i++) {
            if (defaults.get(i).model().equals(model.get())) {
                return defaults.subList(i, defaults.size());
            }
        }
        List<ChainEntry> chain = new ArrayList<>();
        chain.add(ChainEntry.of(model.get()));
        chain.addAll(defaults.subList(1, defaults.size()));
        return chain;
    }

    /** Keeps each model's first occurrence, in order. */
    static List<ChainEntry> collapse(List<ChainEntry> entries) {
        Map<String, ChainEntry> first = new LinkedHashMap<>();
        for (ChainEntry entry : entries) {
            first.putIfAbsent(entry.model(), entry);
        }
        return List.copyOf(first.values());
    }

    private static Chain resolve(List<ChainEntry> entries, ChainSettings request, ChainSettings key) {
        List<Chain.Link> links = new ArrayList<>();
        Duration longest = Duration.ZERO;
        for (int i = 0; i < entries.size(); i++) {
            ChainEntry entry = entries.get(i);
            boolean last = i == entries.size() - 1;
            Duration timeout =
                    entry.timeout().or(request::timeout).or(key::timeout).orElse(ChainLimits.DEFAULT_TIMEOUT);
            Duration firstToken = entry.firstTokenTimeout()
                    .or(request::firstTokenTimeout)
                    .or(key::firstTokenTimeout)
                    .orElse(ChainLimits.DEFAULT_FIRST_TOKEN);
            Duration idle = entry.streamIdleTimeout()
                    .or(request::streamIdleTimeout)
                    .or(key::streamIdleTimeout)
                    .orElse(ChainLimits.DEFAULT_STREAM_IDLE);
            int retries = entry.retries()
                    .or(request::retries)
                    .or(key::retries)
                    .orElse(last ? ChainLimits.DEFAULT_RETRIES : ChainLimits.DEFAULT_RETRIES_BEFORE_FALLBACK);
            links.add(new Chain.Link(entry.model(), timeout, firstToken, idle, retries));
            longest = timeout.compareTo(longest) > 0 ? timeout : longest;
        }
        Set<Trigger> on = request.on().or(key::on).orElseGet(Trigger::all);
        Duration fallbackDeadline =
                longest.compareTo(ChainLimits.DEFAULT_DEADLINE) > 0 ? longest : ChainLimits.DEFAULT_DEADLINE;
        Duration deadline = request.deadline().or(key::deadline).orElse(fallbackDeadline);
        MidStream midStream = request.midStream().or(key::midStream).orElse(MidStream.LOCK);
        return new Chain(links, on, deadline, links.getFirst().model(), midStream);
    }
}
