package io.idem.server.console;

import io.idem.server.config.TrustedProxies;
import io.javalin.http.Context;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * The console's sessions as the browser sees them: a random session id in an HttpOnly,
 * SameSite=Strict cookie scoped to {@code /console}, and before sign-in only the sign-in form's
 * nonce cookie (scoped to the sign-in page; no server state, see {@link SignInForms}). Sign-in
 * issues a fresh id (no fixation). Signed-in sessions live in this node's memory only ({@link
 * SessionTable}): after a restart, or on another node, the operator signs in again. Thread-safe.
 */
final class ConsoleSessions {
    static final String COOKIE = "idem_console";
    static final String FORM_COOKIE = "idem_console_signin";
    static final String CSRF_FIELD = "_csrf";

    private final SessionTable table;
    private final SignInForms forms;
    private final TrustedProxies proxies;

    ConsoleSessions(SessionTable table, SignInForms forms, TrustedProxies proxies) {
        this.table = table;
        this.forms = forms;
        this.proxies = proxies;
    }

    /** The live signed-in session named by the request's cookie, if any. */
    Optional<ConsoleSession> find(Context ctx) {
        return table.find(ctx.cookie(COOKIE));
    }

    /** The sign-in form's CSRF token; the browser's nonce cookie is kept while fresh, else renewed. */
    String signInForm(Context ctx) {
        Optional<SignInForms.Form> held = forms.reuse(ctx.cookie(FORM_COOKIE));
        if (held.isPresent()) {
            return held.get().token();
        }
        SignInForms.Form form = forms.issue();
        setCookie(
                ctx,
                FORM_COOKIE + "=" + form.nonce() + "; Path=" + ConsolePages.LOGIN + "; Max-Age="
                        + SignInForms.LIFETIME.toSeconds());
        return form.token();
    }

    /** Whether the browser still holds a fresh sign-in form nonce. */
    boolean signInFormFresh(Context ctx) {
        return forms.fresh(ctx.cookie(FORM_COOKIE));
    }

    boolean signInFormMatches(Context ctx, String submitted) {
        return forms.matches(ctx.cookie(FORM_COOKIE), submitted);
    }

    /**
     * Replaces whatever session the browser had with a signed-in one under a new id; empty when
     * the table is full of live sessions (no one else's session is ended to make room).
     */
    Optional<ConsoleSession> signIn(Context ctx, String secret) {
        table.end(ctx.cookie(COOKIE));
        Optional<ConsoleSession> session = table.tryStart(secret);
        session.ifPresent(s -> {
            setCookie(ctx, COOKIE + "=" + s.id() + "; Path=/console");
            setCookie(ctx, FORM_COOKIE + "=; Path=" + ConsolePages.LOGIN + "; Max-Age=0");
        });
        return session;
    }

    void end(Context ctx) {
        table.end(ctx.cookie(COOKIE));
        setCookie(ctx, COOKIE + "=; Path=/console; Max-Age=0");
    }

    /** Whether this session is still live (a signed-out session ends its live streams). */
    boolean live(ConsoleSession session) {
        return table.live(session);
    }

    /** Constant-time comparison of the submitted token with the session's. */
    static boolean csrfMatches(ConsoleSession session, String submitted) {
        return submitted != null && MessageDigest.isEqual(session.csrf().getBytes(), submitted.getBytes());
    }

    /** Where the request came from, believing forwarded headers only from a trusted proxy. */
    ForwardedRequest origin(Context ctx) {
        return ForwardedRequest.of(ctx, proxies);
    }

    /** {@code Secure} whenever the browser's connection was TLS, even when a trusted proxy ended it. */
    private void setCookie(Context ctx, String cookie) {
        ctx.res()
                .addHeader(
                        "Set-Cookie",
                        cookie + "; HttpOnly; SameSite=Strict" + (origin(ctx).overTls() ? "; Secure" : ""));
    }
}
