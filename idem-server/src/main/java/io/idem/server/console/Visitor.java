package io.idem.server.console;

import io.idem.core.domain.Role;
import io.idem.server.http.Caller;

/** A signed-in console user: the session and the API key it stands for, authenticated just now. */
record Visitor(ConsoleSession session, Caller caller) {
    boolean mayReview() {
        return switch (caller.role()) {
            case OPERATOR, ADMIN -> true;
            case CLIENT -> false;
        };
    }

    Role role() {
        return caller.role();
    }
}
