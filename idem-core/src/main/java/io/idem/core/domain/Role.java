package io.idem.core.domain;

import java.util.Locale;

/** What an API key may do (DESIGN §7). */
public enum Role {
    /** Own jobs only. */
    CLIENT,
    /** Review, reconcile and resolve, across owners. */
    OPERATOR,
    /** Everything, including keys. */
    ADMIN;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Role fromWire(String value) {
        for (Role role : values()) {
            if (role.wire().equals(value)) {
                return role;
            }
        }
        throw new IllegalArgumentException("unknown role '" + value + "'; expected client, operator or admin");
    }

    /** Whether this role sees every owner's jobs. */
    public boolean seesAllOwners() {
        return switch (this) {
            case CLIENT -> false;
            case OPERATOR, ADMIN -> true;
        };
    }
}
