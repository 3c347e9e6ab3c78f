package io.idem.core.alert;

import java.time.Instant;
import java.util.Objects;

/**
 * One message for the operators' channels.
 *
 * @param key what makes it unique across nodes and restarts: each channel gets each key once
 * @param kind {@code provider.down}, {@code provider.recovered}, {@code budget.warning}, {@code
 *     budget.exhausted}
 * @param text one line a person reads on a phone
 */
public record Alert(String key, String kind, String provider, String text, Instant at) {
    public Alert {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(at, "at");
    }
}
