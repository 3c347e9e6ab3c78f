package io.idem.providers.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

class TransportFailureTest {

    @Test
    void failuresBeforeTheBodyWasPulledAreUnavailableAndNamedForTheirCause() {
        ConnectException dns = new ConnectException();
        dns.initCause(new UnresolvedAddressException());

        assertThat(code(TransportFailure.classify(new ConnectException("refused"), false)))
                .isEqualTo("connect_failed");
        assertThat(code(TransportFailure.classify(new HttpConnectTimeoutException("slow"), false)))
                .isEqualTo("connect_timeout");
        assertThat(code(TransportFailure.classify(dns, false))).isEqualTo("dns_failure");
        assertThat(code(TransportFailure.classify(new SSLHandshakeException("bad cert"), false)))
                .isEqualTo("tls_failure");
        assertThat(code(TransportFailure.classify(new HttpTimeoutException("waiting for 100"), false)))
                .isEqualTo("timeout_before_send");
        assertThat(TransportFailure.classify(new IOException("reset"), false).billable())
                .isEqualTo(Billable.NO);
    }

    @Test
    void failuresAfterTheBodyWasPulledAreUnconfirmed() {
        Outcome timeout = TransportFailure.classify(new HttpTimeoutException("request timed out"), true);
        Outcome reset = TransportFailure.classify(new IOException("Connection reset"), true);

        assertThat(timeout)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("read_timeout"));
        assertThat(reset)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("connection_lost"));
        assertThat(reset.billable()).isEqualTo(Billable.UNKNOWN);
    }

    private static String code(Outcome outcome) {
        return ((Outcome.Unavailable) outcome).code();
    }
}
