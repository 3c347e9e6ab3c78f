package io.idem.server.console;

import io.idem.core.spi.AuditEvent;
import io.idem.core.spi.AuditLog;
import io.idem.server.auth.KeyService;
import io.javalin.http.Context;
import java.net.InetAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sign-in with an API key, and sign-out. The key is checked once here and then kept only in the
 * server-side session; the browser gets a new random session id (never the key). Attempts pass
 * the {@link SignInThrottle} first: a refused one is answered {@code 429} without checking the key.
 */
final class LoginPage {
    private static final Logger log = LoggerFactory.getLogger(LoginPage.class);
    private final ConsoleGate gate;
    private final ConsolePages pages;
    private final KeyService keys;
    private final SignInThrottle throttle;
    private final AuditLog audit;

    LoginPage(ConsoleGate gate, ConsolePages pages, KeyService keys, SignInThrottle throttle, AuditLog audit) {
        this.gate = gate;
        this.pages = pages;
        this.keys = keys;
        this.throttle = throttle;
        this.audit = audit;
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
        InetAddress client = gate.sessions().origin(ctx).client();
        switch (throttle.admit(client, secret)) {
            case SignInAdmission.Refused refused -> {
                refused.started().forEach(this::append);
                ctx.header("Retry-After", Long.toString(refused.retryAfterSeconds()));
                form(ctx, 429, tooMany(refused));
                return;
            }
            case SignInAdmission.Admitted admitted -> {}
        }
        if (keys.authenticate(secret).isEmpty()) {
            form(ctx, 401, "That API key is unknown or revoked.");
            return;
        }
        throttle.succeeded(client, secret);
        if (gate.sessions().signIn(ctx, secret).isEmpty()) {
            form(ctx, 503, "The console has too many open sessions right now. Try again later.");
            return;
        }
        ConsolePages.redirect(ctx, Console.HOME);
    }

    void signOut(Context ctx) {
        gate.sessions().find(ctx).ifPresent(session -> gate.checkForm(ctx, session));
        gate.sessions().end(ctx);
        ConsolePages.redirect(ctx, ConsolePages.LOGIN);
    }

    /** The sign-in form, with its CSRF token and an error to show (or none). */
    private void form(Context ctx, int status, String error) {
        String csrf = gate.sessions().signInForm(ctx);
        ctx.status(status);
        pages.page(ctx, "login.jte", new Views.LoginView(ConsolePages.anonymous("Sign in"), csrf, error));
    }

    private static String tooMany(SignInAdmission.Refused refused) {
        long seconds = refused.retryAfterSeconds();
        String wait = seconds < 120 ? seconds + " seconds" : (seconds + 59) / 60 + " minutes";
        return switch (refused.by()) {
            case ADDRESS ->
                "Too many failed sign-ins from your address. The key was not checked. Try again in " + wait + ".";
            case KEY_PREFIX ->
                "Too many failed sign-ins with keys that start like this one. The key was not checked."
                        + " Try again in " + wait + ".";
        };
    }

    /** The throttle holds whether or not its event is stored: a failed write is logged, not thrown. */
    private void append(AuditEvent event) {
        try {
            audit.append(event);
        } catch (RuntimeException e) {
            log.error("could not store audit event {} for {}", event.type(), event.actor(), e);
        }
    }
}
