package io.idem.server.console;

import io.idem.server.auth.KeyService;
import io.javalin.http.Context;

/**
 * Sign-in with an API key, and sign-out. The key is checked once here and then kept only in the
 * server-side session; the browser gets a new random session id (never the key).
 */
final class LoginPage {
    private final ConsoleGate gate;
    private final ConsolePages pages;
    private final KeyService keys;

    LoginPage(ConsoleGate gate, ConsolePages pages, KeyService keys) {
        this.gate = gate;
        this.pages = pages;
        this.keys = keys;
    }

    void show(Context ctx) {
        if (gate.tryVisitor(ctx).isPresent()) {
            ConsolePages.redirect(ctx, Console.HOME);
            return;
        }
        form(ctx, 200, null);
    }

    void signIn(Context ctx) {
        gate.checkSignInForm(ctx);
        String secret =
                ctx.formParam("api_key") == null ? "" : ctx.formParam("api_key").strip();
        if (keys.authenticate(secret).isEmpty()) {
            form(ctx, 401, "That API key is unknown or revoked.");
            return;
        }
        if (gate.sessions().signIn(ctx, secret).isEmpty()) {
            form(ctx, 503, "The console has too many open sessions right now. Try again later.");
            return;
        }
        ConsolePages.redirect(ctx, Console.HOME);
    }

    /** The sign-in form, with its CSRF token and an error to show (or none). */
    private void form(Context ctx, int status, String error) {
        String csrf = gate.sessions().signInForm(ctx);
        ctx.status(status);
        pages.page(ctx, "login.jte", new Views.LoginView(ConsolePages.anonymous("Sign in"), csrf, error));
    }

    void signOut(Context ctx) {
        gate.sessions().find(ctx).ifPresent(session -> gate.checkForm(ctx, session));
        gate.sessions().end(ctx);
        ConsolePages.redirect(ctx, ConsolePages.LOGIN);
    }
}
