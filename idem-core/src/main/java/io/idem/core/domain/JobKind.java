package io.idem.core.domain;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What a job makes. The wire name is the lower-case constant name ({@code image}, {@code video}). */
public enum JobKind {
    IMAGE,
    VIDEO;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind with this wire name, if there is one. */
    public static Optional<JobKind> parse(String wire) {
        return Arrays.stream(values()).filter(k -> k.wire().equals(wire)).findFirst();
    }

    /** The kind with this wire name; an unknown name is a bug in what wrote it. */
    public static JobKind fromWire(String wire) {
        return parse(wire).orElseThrow(() -> new IllegalArgumentException("unknown job kind '" + wire + "'"));
    }

    @Override
    public String toString() {
        return wire();
    }
}
