package io.idem.server.console;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.idem.server.http.ApiError;
import io.idem.server.http.PageHeaders;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renders the console's precompiled jte templates and answers every console request the same
 * way: strict security headers, sign-in redirects, and refusals as readable pages (never JSON).
 */
final class ConsolePages {
    private static final Logger log = LoggerFactory.getLogger(ConsolePages.class);
    static final String LOGIN = "/console/login";
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " media-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private final TemplateEngine engine = TemplateEngine.createPrecompiled(
            null, ContentType.Html, ConsolePages.class.getClassLoader(), "io.idem.server.console.jte");
    private final ConsoleGate gate;

    ConsolePages(ConsoleGate gate) {
        this.gate = gate;
    }

    String render(String template, Object model) {
        StringOutput out = new StringOutput();
        engine.render(template, model, out);
        return out.toString();
    }

    void page(Context ctx, String template, Object model) {
        secure(ctx);
        ctx.html(render(template, model));
    }

    static void secure(Context ctx) {
        PageHeaders.strict(ctx, CSP, "no-store");
    }

    static boolean htmx(Context ctx) {
        return "true".equals(ctx.header("HX-Request"));
    }

    /** Sends the browser somewhere else: htmx follows {@code HX-Redirect}, plain forms a 303. */
    static void redirect(Context ctx, String location) {
        if (htmx(ctx)) {
            ctx.header("HX-Redirect", location).status(200);
        } else {
            ctx.redirect(location, io.javalin.http.HttpStatus.SEE_OTHER);
        }
    }

    /** Wraps a console handler: sign-in, refusals and failures become pages, not JSON. */
    Handler guard(Handler handler) {
        return ctx -> {
            try {
                handler.handle(ctx);
            } catch (ConsoleRefusal.SignInRequired e) {
                redirect(ctx, LOGIN);
            } catch (ConsoleRefusal e) {
                error(ctx, e.status(), e.getMessage());
            } catch (ApiError e) {
                error(ctx, e.status(), e.getMessage());
            } catch (RuntimeException e) {
                String requestId = ctx.res().getHeader("X-Request-Id");
                log.error("console failure on {} {} (request {})", ctx.method(), ctx.path(), requestId, e);
                error(ctx, 500, "Something went wrong on the server. Quote request id " + requestId + ".");
            }
        };
    }

    void error(Context ctx, int status, String message) {
        Views.Frame frame = gate.tryVisitor(ctx).map(v -> frame(v, "Error", "")).orElseGet(() -> anonymous("Error"));
        ctx.status(status);
        if (htmx(ctx)) {
            // htmx swaps only 2xx answers by default; the refusal goes into the page's error slot.
            ctx.status(200).header("HX-Retarget", "#problem").header("HX-Reswap", "innerHTML");
            secure(ctx);
            ctx.html(render("partials/problem.jte", message));
            return;
        }
        page(ctx, "error.jte", new Views.ErrorView(frame, status, message));
    }

    static Views.Frame frame(Visitor visitor, String title, String active) {
        return new Views.Frame(
                title,
                active,
                true,
                visitor.caller().owner(),
                visitor.role().wire(),
                visitor.session().csrf(),
                visitor.mayReview(),
                visitor.session().takeFlash());
    }

    static Views.Frame anonymous(String title) {
        return new Views.Frame(title, "", false, null, null, null, false, null);
    }
}
