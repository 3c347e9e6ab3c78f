package io.idem.server.console;

/** A console request refused with a status and a message for the person at the screen. */
final class ConsoleRefusal extends io.idem.core.IdemException {
    private final int status;

    ConsoleRefusal(int status, String message) {
        super(message, false);
        this.status = status;
    }

    int status() {
        return status;
    }

    static ConsoleRefusal notFound(String what) {
        return new ConsoleRefusal(404, "No such " + what + ", or it is not yours to see.");
    }

    /** The visitor is not signed in (or the key was revoked): answered with the sign-in page. */
    static final class SignInRequired extends io.idem.core.IdemException {
        SignInRequired() {
            super("sign in first", false);
        }
    }
}
