package io.idem.server.chat;

import io.idem.core.chat.ChatAdapter;
import io.idem.core.chat.ChatAttempt;
import io.idem.core.chat.ChatAuditSink;
import io.idem.core.chat.ChatAuditWriter;
import io.idem.core.chat.ChatEngine;
import io.idem.core.chat.ChatModel;
import io.idem.core.chat.ChatRouting;
import io.idem.core.chat.FailoverEvent;
import io.idem.core.chat.StaticTierNotes;
import io.idem.core.engine.HealthSentinel;
import io.idem.core.engine.ProviderGate;
import io.idem.core.engine.ProviderRegistry;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.routing.Routing;
import io.idem.core.spi.ChatIdempotencyStore;
import io.idem.core.spi.KeySpend;
import io.idem.core.spi.ProviderSignals;
import io.idem.core.text.Redactor;
import io.idem.providers.ChatAdapters;
import io.idem.providers.Vendors;
import io.idem.providers.chat.StaticChatAdapter;
import io.idem.server.auth.ServerSecret;
import io.idem.server.http.KeyBudget;
import io.idem.server.http.RetryMerge;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chat side of one node: a chat adapter per provider that serves chat models, the engine (over
 * the provider gate shared with jobs), the group-committing audit writer, the idempotency keys, a
 * health sentinel for chat-only providers, and the HTTP route. {@link #close()} stops them; the
 * audit writer is its owner's to close, after this node.
 */
public final class ChatNode implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChatNode.class);

    /**
     * What the chat side needs from the node.
     *
     * @param replays how repeated calls are recognised
     * @param keys where chat adapters read their keys (the configuration's credentials)
     * @param redactor the node's redactor, for adapters and the engine
     * @param reporting this node's name, in the health events it writes, and where it tells its timings
     */
    public record Parts(
            ChatRouting chat,
            Routing routing,
            Stores stores,
            ProviderGate gate,
            Replays replays,
            Duration healthEvery,
            InstantSource clock,
            UnaryOperator<String> keys,
            Redactor redactor,
            Reporting reporting) {}

    /**
     * This node's name (in the health events it writes), where plain calls' timings go (the
     * metrics), and where live answers to single-turn prompts are kept for the static tier.
     */
    public record Reporting(String node, ChatTimings timings, TrafficRecorder traffic) {
        public Reporting(String node, ChatTimings timings) {
            this(node, timings, TrafficRecorder.off());
        }
    }

    /**
     * How a repeated call is recognised: a client's {@code Idempotency-Key} (digested under {@code
     * secret}, kept for {@code retention}), or a keyless request's SDK retries ({@code merge}).
     */
    public record Replays(ServerSecret secret, Duration retention, RetryMerge merge) {}

    /**
     * The chat side's stores: idempotency keys, key spend, and the audit writer (its owner closes
     * it after this node, so it commits what the last calls wrote); every attempt and failover is
     * also told to {@code also} (the metrics); health verdicts and static-tier answers go to {@code
     * signals}, the shared provider log.
     */
    public record Stores(
            ChatIdempotencyStore keys,
            KeySpend spend,
            ChatAuditWriter audit,
            ChatAuditSink also,
            ProviderSignals signals) {}

    private HealthSentinel sentinel;
    private ChatAuditWriter audit;
    private ChatApi api;
    private final Map<String, StaticChatAdapter> staticTier = new LinkedHashMap<>();
    private Map<String, ChatModel> offered = Map.of();
    private ChatPlans plans;

    private ChatNode() {}

    public static ChatNode start(Parts parts) {
        ChatNode node = new ChatNode();
        try {
            node.boot(parts);
            return node;
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
    }

    /** One adapter per enabled provider that serves a chat model; the static tier's are kept too. */
    private Map<String, ChatAdapter> adapters(Parts parts, ChatRouting chat) {
        Map<String, ChatAdapter> adapters = new LinkedHashMap<>();
        Map<String, List<String>> vendorModels = chat.models().values().stream()
                .collect(Collectors.groupingBy(
                        ChatModel::provider, Collectors.mapping(ChatModel::vendorModel, Collectors.toList())));
        vendorModels.forEach((provider, ids) -> {
            ProviderSettings settings = settings(parts, provider);
            if (!settings.enabled()) {
                log.info("provider '{}' is disabled: its chat models are not offered", provider);
                return;
            }
            ChatAdapter adapter = ChatAdapters.create(
                    settings,
                    Optional.ofNullable(chat.answersFiles().get(provider)),
                    ids,
                    parts.keys(),
                    parts.redactor());
            adapters.put(provider, adapter);
            if (adapter instanceof StaticChatAdapter tier) {
                staticTier.put(provider, tier);
            }
        });
        return adapters;
    }

    private void boot(Parts parts) {
        ChatRouting chat = parts.chat();
        Map<String, ChatModel> models = new LinkedHashMap<>();
        Map<String, ChatAdapter> adapters = adapters(parts, chat);
        chat.models().forEach((name, model) -> {
            if (adapters.containsKey(model.provider())) {
                models.put(name, model);
            }
        });
        offered = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(models));
        audit = parts.stores().audit();
        ChatAuditSink sinks = allSinks(List.of(
                audit, parts.stores().also(), new StaticTierNotes(parts.stores().signals(), parts.clock())));
        ChatEngine engine = new ChatEngine(models, adapters, parts.gate(), sinks, parts.clock(), parts.redactor());
        Set<String> fakeModels = models.values().stream()
                .filter(m -> settings(parts, m.provider()).acceptsSimulate())
                .map(ChatModel::name)
                .collect(Collectors.toUnmodifiableSet());
        var reader = new ChatRequestReader(
                models::containsKey,
                (model, request) -> adapters.get(models.get(model).provider()).unhonoured(request),
                fakeModels::contains,
                parts.routing().lanes().keySet(),
                parts.routing().defaultLane());
        plans = new ChatPlans(reader, models, chat, new KeyBudget(parts.stores().spend(), parts.clock()));
        var idempotencyStore = parts.stores().keys();
        api = new ChatApi(
                engine,
                chat,
                reader,
                new KeyBudget(parts.stores().spend(), parts.clock()),
                new ChatIdempotency(
                        idempotencyStore,
                        parts.replays().secret(),
                        parts.replays().retention(),
                        parts.replays().merge(),
                        parts.clock()),
                new ChatFailures(parts.gate().breakers(), parts.clock()),
                parts.clock(),
                parts.reporting().timings(),
                parts.reporting().traffic());
        startHealth(parts, adapters);
        log.info("chat models: {}", models.keySet());
    }

    private static ProviderSettings settings(Parts parts, String provider) {
        ProviderSettings settings = parts.routing().providers().get(provider);
        if (settings == null) {
            settings = parts.chat().chatOnlyProviders().get(provider);
        }
        if (settings == null) {
            throw new IllegalStateException("chat provider '" + provider + "' is not configured");
        }
        return settings;
    }

    /** Chat-only providers that can be unwell get their own health checks; job providers have theirs. */
    private void startHealth(Parts parts, Map<String, ChatAdapter> adapters) {
        Map<String, ProviderRegistry.Provider> checked = new LinkedHashMap<>();
        parts.chat().chatOnlyProviders().forEach((name, settings) -> {
            boolean callsOut = Vendors.named(settings.adapter())
                    .orElseThrow()
                    .capabilities()
                    .callsOut();
            if (adapters.containsKey(name) && callsOut) {
                checked.put(name, new ProviderRegistry.Provider(settings, new ChatHealthBridge(adapters.get(name))));
            }
        });
        if (checked.isEmpty()) {
            return;
        }
        sentinel = new HealthSentinel(
                new ProviderRegistry(checked, parts.redactor()),
                parts.gate().breakers(),
                parts.clock(),
                io.idem.core.time.Ticker.system(),
                parts.healthEvery(),
                Duration.ofSeconds(5),
                parts.stores().signals(),
                parts.reporting().node());
        sentinel.start();
    }

    public ChatApi api() {
        return api;
    }

    /** What chat bodies would do, for the route check. */
    public ChatPlans plans() {
        return plans;
    }

    /** The chat models this node offers (those of enabled providers), in configuration order. */
    public Map<String, ChatModel> offered() {
        return offered;
    }

    /** The static last-resort tier's adapters, by provider, for their coverage counts. */
    public Map<String, StaticChatAdapter> staticTier() {
        return Map.copyOf(staticTier);
    }

    /** The health sentinel of the chat-only providers that call out, if there are any. */
    public Optional<HealthSentinel> sentinel() {
        return Optional.ofNullable(sentinel);
    }

    /** Every record to each sink in turn. */
    private static ChatAuditSink allSinks(List<ChatAuditSink> sinks) {
        return new ChatAuditSink() {
            @Override
            public void attempt(ChatAttempt attempt) {
                sinks.forEach(sink -> sink.attempt(attempt));
            }

            @Override
            public void failover(FailoverEvent event) {
                sinks.forEach(sink -> sink.failover(event));
            }

            @Override
            public void degraded(ChatAttempt attempt) {
                sinks.forEach(sink -> sink.degraded(attempt));
            }
        };
    }

    /** The audit writer, for tests that wait until every attempt is committed. */
    public ChatAuditWriter audit() {
        return audit;
    }

    @Override
    public void close() {
        if (sentinel != null) {
            sentinel.close();
        }
    }
}
