package io.idem.server.redaction;

import io.idem.core.text.Redactor;
import io.idem.server.auth.ServerSecret;
import io.idem.server.config.IdemConfig;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's one {@link Redactor}, built at start from the configuration and the environment it was
 * read from: every provider key (job and chat-only providers), the server secret (given or
 * generated), the bootstrap key and the database password. It is installed for logging and handed
 * to every adapter and to the engines.
 */
public final class NodeRedaction {
    private static final Logger log = LoggerFactory.getLogger(NodeRedaction.class);

    private NodeRedaction() {}

    /**
     * Builds the redactor and installs it for logging. A value too short to be hidden everywhere is
     * warned about, by where it came from (never its value): it is hidden only as a whole word.
     */
    public static Redactor start(IdemConfig config, ServerSecret secret) {
        Map<String, String> values = config.secretValues();
        values.forEach((where, value) -> {
            if (!value.isBlank() && Redactor.isShort(value)) {
                log.warn(
                        "{} is shorter than {} characters: it is redacted only where it stands as a whole word;"
                                + " a real credential is longer",
                        where,
                        Redactor.MIN_ANYWHERE);
            }
        });
        Redactor redactor = secret.addTo(Redactor.of(values.values()));
        RedactingLayout.install(redactor);
        return redactor;
    }
}
