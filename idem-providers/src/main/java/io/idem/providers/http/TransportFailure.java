package io.idem.providers.http;

import io.idem.core.outcome.Outcome;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Classifies a call that ended without an HTTP answer (DESIGN §3): {@code Unavailable} when the
 * request body never left, {@code Unconfirmed} when it may have.
 *
 * <p>The {@link SendTracker} decides, not the exception type. Connect, DNS and TLS handshake
 * failures happen before the client asks for the body, so they land on {@code Unavailable} anyway
 * and only lend the outcome its code. A timeout while the body was still un-pulled (connecting, or
 * waiting for {@code 100 Continue}) is {@code Unavailable} too: the vendor held at most the request
 * head, on which it cannot act. Anything once the body was pulled is {@code Unconfirmed}, because
 * the JDK cannot tell us how many of those bytes the vendor read before the failure.
 *
 * <p>Messages carry the exception's class and message only, never request headers.
 */
public final class TransportFailure {
    private TransportFailure() {}

    /** Classifies a failed send. */
    public static Outcome classify(Throwable failure, boolean bodyPulled) {
        String message = describe(failure);
        if (!bodyPulled) {
            return new Outcome.Unavailable(notSentCode(failure), "request not sent: " + message, 0, null);
        }
        if (hasCause(failure, HttpTimeoutException.class) || hasCause(failure, TimeoutException.class)) {
            return new Outcome.Unconfirmed("read_timeout", "no answer in time after sending: " + message, 0, null);
        }
        return new Outcome.Unconfirmed("connection_lost", "connection failed after sending: " + message, 0, null);
    }

    /** Classifies a call abandoned because our own thread was interrupted (shutdown). */
    public static Outcome interrupted(boolean bodyPulled) {
        if (!bodyPulled) {
            return new Outcome.Unavailable("interrupted", "interrupted before the request was sent", 0, null);
        }
        return new Outcome.Unconfirmed("interrupted", "interrupted after the request was sent", 0, null);
    }

    private static String notSentCode(Throwable failure) {
        // Order matters: HttpConnectTimeoutException is an HttpTimeoutException, and the JDK wraps
        // an unresolvable host in a ConnectException.
        if (hasCause(failure, HttpConnectTimeoutException.class)) {
            return "connect_timeout";
        }
        if (hasCause(failure, UnresolvedAddressException.class) || hasCause(failure, UnknownHostException.class)) {
            return "dns_failure";
        }
        if (hasCause(failure, SSLHandshakeException.class)) {
            return "tls_failure";
        }
        if (hasCause(failure, ConnectException.class)) {
            return "connect_failed";
        }
        if (hasCause(failure, HttpTimeoutException.class) || hasCause(failure, TimeoutException.class)) {
            return "timeout_before_send";
        }
        return "connection_closed_before_send";
    }

    private static boolean hasCause(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
            if (t.getCause() == t) {
                return false;
            }
        }
        return false;
    }

    static String describe(Throwable failure) {
        String text = failure.getMessage();
        return failure.getClass().getSimpleName() + (text == null || text.isBlank() ? "" : ": " + text);
    }
}
