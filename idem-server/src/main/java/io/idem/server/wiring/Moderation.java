package io.idem.server.wiring;

import io.idem.core.moderation.ModerationPolicy;
import io.idem.core.moderation.OutputModerator;
import io.idem.providers.moderation.HookModerator;
import io.idem.providers.moderation.OpenAiModerator;
import io.idem.server.config.IdemConfig;
import io.idem.server.config.ModerationSettings;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/** The moderation policy the configuration asks for: the moderator, and every lane it checks. */
final class Moderation {
    private Moderation() {}

    static ModerationPolicy policy(IdemConfig config) {
        ModerationSettings settings = config.engine().moderation();
        if (!settings.configured()) {
            return ModerationPolicy.NONE;
        }
        Optional<String> key = settings.keyEnv().map(config.credentials()::get);
        String adapter = settings.adapter().orElseThrow();
        OutputModerator moderator = adapter.equals(ModerationSettings.OPENAI)
                ? new OpenAiModerator(adapter, settings.url(), key, settings.model(), settings.timeout())
                : new HookModerator(adapter, settings.url(), key, settings.timeout());
        Set<String> lanes = new HashSet<>(settings.lanes());
        lanes.addAll(config.routing().adultLanes());
        return new ModerationPolicy(Optional.of(moderator), lanes);
    }
}
