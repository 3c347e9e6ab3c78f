package io.idem.server.outbound;

import io.idem.core.text.Redactor;
import java.net.http.HttpClient;
import java.time.Duration;

/**
 * What every outbound sender (alert channels, event webhooks) shares: one HTTP client that never
 * follows a redirect, and how a receiver's answer is told in a log or a delivery record: its status
 * and the start of what it said, through the node's redactor, never the URL.
 */
public final class Receivers {
    /** How much of a receiver's answer is kept. */
    public static final int SAID_CHARS = 200;

    private Receivers() {}

    /** A client for receivers: 5 s to connect, no redirects (a redirect could point anywhere). */
    public static HttpClient client() {
        return HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** The receiver's words, redacted and cut to {@link #SAID_CHARS}. */
    public static String said(Redactor redactor, String body) {
        String said = redactor.redact(body == null ? "" : body.strip());
        return said.length() > SAID_CHARS ? said.substring(0, SAID_CHARS) + "…" : said;
    }

    /** {@code HTTP 500: what it said}, for an answer that is not a success. */
    public static String refusal(int status, String said) {
        return "HTTP " + status + (said.isEmpty() ? "" : ": " + said);
    }

    /** Why there was no answer, by the kind of failure only (its message may name the address). */
    public static String noAnswer(Exception e) {
        return "no answer (" + e.getClass().getSimpleName() + ")";
    }
}
