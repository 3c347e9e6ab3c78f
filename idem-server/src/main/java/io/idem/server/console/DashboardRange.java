package io.idem.server.console;

import io.idem.core.spi.DashboardReads.Window;
import java.time.Duration;
import java.time.Instant;

/** The windows the Dashboard offers: the last 24 hours by the hour, or the last hour by 5 minutes. */
enum DashboardRange {
    DAY("24h", "Last 24 hours", Duration.ofHours(1), 24, "hour"),
    HOUR("1h", "Last hour", Duration.ofMinutes(5), 12, "5 minutes");

    private final String value;
    private final String label;
    private final Duration step;
    private final int buckets;
    private final String bucketWords;

    DashboardRange(String value, String label, Duration step, int buckets, String bucketWords) {
        this.value = value;
        this.label = label;
        this.step = step;
        this.buckets = buckets;
        this.bucketWords = bucketWords;
    }

    /** The query value ({@code ?range=24h}). */
    String value() {
        return value;
    }

    String label() {
        return label;
    }

    /** What one bucket spans, in words ({@code hour}, {@code 5 minutes}). */
    String bucketWords() {
        return bucketWords;
    }

    /** The window ending now, its buckets aligned to their step (UTC). */
    Window window(Instant now) {
        return Window.endingAt(now, step, buckets);
    }

    /** The range a query asks for; none means the last 24 hours. */
    static DashboardRange from(String value) {
        if (value == null || value.isEmpty()) {
            return DAY;
        }
        for (DashboardRange range : values()) {
            if (range.value.equals(value)) {
                return range;
            }
        }
        throw new ConsoleRefusal(400, "Unknown window '" + value + "': choose 24h or 1h.");
    }
}
