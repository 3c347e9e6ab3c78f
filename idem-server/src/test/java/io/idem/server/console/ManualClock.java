package io.idem.server.console;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock that moves only when the test says so. */
final class ManualClock implements InstantSource {
    private volatile Instant now = Instant.parse("2026-01-05T09:00:00Z");

    void advance(Duration by) {
        now = now.plus(by);
    }

    @Override
    public Instant instant() {
        return now;
    }
}
