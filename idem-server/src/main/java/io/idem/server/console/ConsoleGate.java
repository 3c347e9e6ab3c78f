package io.idem.server.console;

import io.idem.server.auth.KeyService;
import io.idem.server.http.Caller;
import io.javalin.http.Context;
import java.net.URI;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Who may do what in the console. Every page and action authenticates the session's key afresh
 * (revocation applies), actions check its role, and every state-changing form must carry the
 * session's CSRF token and come from this origin.
 */
final class ConsoleGate {
    private final ConsoleSessions sessions;
    private final KeyService keys;

    ConsoleGate(ConsoleSessions sessions, KeyService keys) {
        this.sessions = sessions;
        this.keys = keys;
    }

    ConsoleSessions sessions() {
        return sessions;
    }

    /** The signed-in visitor, or {@link ConsoleRefusal.SignInRequired}. */
    Visitor visitor(Context ctx) {
        return tryVisitor(ctx).orElseThrow(ConsoleRefusal.SignInRequired::new);
    }

    Optional<Visitor> tryVisitor(Context ctx) {
        Optional<ConsoleSession> session = sessions.find(ctx);
        if (session.isEmpty()) {
            return Optional.empty();
        }
        Optional<Caller> caller = keys.authenticate(session.get().secret()).map(Caller::new);
        if (caller.isEmpty()) {
            sessions.end(ctx);
            return Optional.empty();
        }
        return Optional.of(new Visitor(session.get(), caller.get()));
    }

    /** Whether a live stream's session still stands (signed out or revoked: the stream ends). */
    boolean stillValid(Visitor visitor) {
        return sessions.live(visitor.session())
                && keys.authenticate(visitor.session().secret()).isPresent();
    }

    /** The visitor, who must hold the operator or admin role. */
    Visitor operator(Context ctx) {
        Visitor visitor = visitor(ctx);
        if (!visitor.mayReview()) {
            throw new ConsoleRefusal(
                    403,
                    "This page needs an operator or admin key; this key has role "
                            + visitor.role().wire() + ".");
        }
        return visitor;
    }

    /** Refuses a state-changing request that lacks this session's CSRF token or comes from elsewhere. */
    void checkForm(Context ctx, ConsoleSession session) {
        checkForm(ctx, token -> ConsoleSessions.csrfMatches(session, token));
    }

    /** Refuses a sign-in post without the sign-in form's token, or from elsewhere. */
    void checkSignInForm(Context ctx) {
        if (!sessions.signInFormFresh(ctx)) {
            throw new ConsoleRefusal(403, "The sign-in form has expired. Reload the page and try again.");
        }
        checkForm(ctx, token -> sessions.signInFormMatches(ctx, token));
    }

    private static void checkForm(Context ctx, Predicate<String> tokenMatches) {
        checkOrigin(ctx);
        if (!tokenMatches.test(ctx.formParam(ConsoleSessions.CSRF_FIELD))) {
            throw new ConsoleRefusal(
                    403, "This form has expired or did not come from this console. Reload the page and try again.");
        }
    }

    private static void checkOrigin(Context ctx) {
        if ("cross-site".equals(ctx.header("Sec-Fetch-Site"))) {
            throw new ConsoleRefusal(403, "Cross-site form posts are refused.");
        }
        String origin = ctx.header("Origin");
        if (origin == null || origin.equals("null")) {
            return;
        }
        try {
            URI uri = URI.create(origin);
            String host = ctx.host();
            String expected = uri.getPort() == -1 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
            if (host == null || !host.equalsIgnoreCase(expected)) {
                throw new ConsoleRefusal(403, "Form posts from another origin are refused.");
            }
        } catch (IllegalArgumentException e) {
            throw new ConsoleRefusal(403, "Form posts from another origin are refused.");
        }
    }
}
