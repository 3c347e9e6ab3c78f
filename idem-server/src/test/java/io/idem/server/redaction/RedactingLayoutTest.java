package io.idem.server.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.idem.core.text.Redactor;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The log layout hides the node's secrets in messages and in logged exceptions alike. */
class RedactingLayoutTest {
    private static final String KEY = "layout-test-vendor-key-8c41";

    private static String rendered(String message, Throwable thrown) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        RedactingLayout layout = new RedactingLayout();
        layout.setContext(context);
        layout.setPattern("%-5level %logger{24} - %msg%n");
        layout.start();
        Logger logger = context.getLogger("io.idem.test");
        return layout.doLayout(new LoggingEvent(Logger.class.getName(), logger, Level.WARN, message, thrown, null));
    }

    @Test
    void anInstalledSecretNeverReachesALogLine() {
        RedactingLayout.install(Redactor.of(List.of(KEY)));

        String line = rendered("vendor said " + KEY, new IllegalStateException("header was Key " + KEY));

        assertThat(line)
                .contains("vendor said [redacted]")
                .contains("IllegalStateException: header was Key [redacted]")
                .doesNotContain(KEY);
    }

    @Test
    void credentialShapesAreHiddenEvenInLinesNoNodeKnowsTheSecretOf() {
        String line = rendered("retrying with Authorization: Bearer unknown-token-1234", null);

        assertThat(line).contains("Bearer [redacted]").doesNotContain("unknown-token-1234");
    }
}
