package io.idem.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import io.idem.server.redaction.RedactingLayout;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.LoggerFactory;

/**
 * Everything the node's log prints while a test runs, rendered as production renders it: an
 * appender on the root logger with the layout and pattern of {@code logback.xml}'s console
 * appender. Idem's own loggers are turned up to DEBUG meanwhile, so lines production hides at INFO
 * are checked too.
 */
final class CapturedLog implements AutoCloseable {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
    private final Logger root;
    private final Logger idem;
    private final Level idemLevel;

    private CapturedLog() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        var console = (LayoutWrappingEncoder<ILoggingEvent>)
                ((ch.qos.logback.core.OutputStreamAppender<ILoggingEvent>) root.getAppender("STDERR")).getEncoder();
        RedactingLayout layout = new RedactingLayout();
        layout.setContext(context);
        layout.setPattern(((RedactingLayout) console.getLayout()).getPattern());
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        appender.setContext(context);
        appender.setName("secret-scan");
        appender.setEncoder(encoder);
        appender.setOutputStream(bytes);
        appender.start();
        root.addAppender(appender);
        idem = context.getLogger("io.idem");
        idemLevel = idem.getLevel();
        idem.setLevel(Level.DEBUG);
    }

    static CapturedLog start() {
        return new CapturedLog();
    }

    String text() {
        synchronized (bytes) {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        idem.setLevel(idemLevel);
        root.detachAppender(appender);
        appender.stop();
    }
}
