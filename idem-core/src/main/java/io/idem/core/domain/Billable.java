package io.idem.core.domain;

/** Whether a provider call may appear on the provider's invoice (DESIGN §1.6). */
public enum Billable {
    YES,
    NO,
    UNKNOWN;

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Billable fromWire(String value) {
        return valueOf(value.toUpperCase(java.util.Locale.ROOT));
    }
}
