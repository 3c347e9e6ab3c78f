package io.idem.server.redaction;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.idem.core.text.Redactor;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Idem's log layout ({@code logback.xml}): a {@link PatternLayout} whose every rendered line (the
 * message, the stack trace of a logged exception, anything else the pattern prints) passes through
 * the node's {@link Redactor} before an appender writes it. It is the last line of defence for
 * logs: an adapter's exception that quotes a key, or a log call that forgets, still prints none.
 *
 * <p>Logback builds its layouts itself from {@code logback.xml}, and the redactor exists only once
 * the configuration is loaded, so it cannot be handed over: {@link #install} sets it process-wide
 * instead. This hook serves logging only; everything else gets its redactor passed in. Several
 * nodes in one JVM (tests) each add their secrets; until the first installs, the shapes alone are
 * hidden. Thread-safe.
 */
public final class RedactingLayout extends PatternLayout {
    private static final AtomicReference<Redactor> INSTALLED = new AtomicReference<>(Redactor.shapesOnly());

    /** Makes every log line from now on hide what {@code redactor} hides, as well as what it hid before. */
    public static void install(Redactor redactor) {
        INSTALLED.updateAndGet(current -> current.and(redactor));
    }

    @Override
    public String doLayout(ILoggingEvent event) {
        return INSTALLED.get().redact(super.doLayout(event));
    }
}
