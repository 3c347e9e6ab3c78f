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
        ConsoleSession session = gate.sessions().findOrStart(ctx);
        pages.page(ctx, "login.jte", new Views.LoginView(ConsolePages.anonymous("Sign in"), session.csrf(), null));
    }

    void signIn(Context ctx) {
        ConsoleSession anonymous = gate.sessions()
                .find(ctx)
                .orElseThrow(
                        () -> new ConsoleRefusal(403, "The sign-in form has expired. Reload the page and try again."));
        gate.checkForm(ctx, anonymous);
        String secret =
                ctx.formParam("api_key") == null ? "" : ctx.formParam("api_key").strip();
        if (keys.authenticate(secret).isEmpty()) {
            ctx.status(401);
            pages.page(
                    ctx,
                    "login.jte",
                    new Views.LoginView(
                            ConsolePages.anonymous("Sign in"),
                            anonymous.csrf(),
                            "That API key is unknown or revoked."));
            return;
        }
        gate.sessions().signIn(ctx, secret);
        ConsolePages.redirect(ctx, Console.HOME);
    }

    void signOut(Context ctx) {
        gate.sessions().find(ctx).ifPresent(session -> gate.checkForm(ctx, session));
        gate.sessions().end(ctx);
        ConsolePages.redirect(ctx, ConsolePages.LOGIN);
    }
}
