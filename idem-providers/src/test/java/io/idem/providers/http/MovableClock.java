package io.idem.providers.http;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** The system clock moved by a settable offset: real time passes, and a test can jump ahead. */
public final class MovableClock implements InstantSource {
    private volatile Duration offset = Duration.ZERO;

    public void advance(Duration by) {
        offset = offset.plus(by);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }
}
