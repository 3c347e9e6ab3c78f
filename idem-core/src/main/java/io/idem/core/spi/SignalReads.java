package io.idem.core.spi;

import io.idem.core.alert.Signals;
import java.time.Instant;

/** The numbers the threshold alert rules watch, cluster-wide. Thread-safe. */
public interface SignalReads {
    Signals read(Signals.Query query, Instant now);
}
