package io.idem.providers.fal;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.idem.providers.fal.FalStubs.SECRET;
import static io.idem.providers.fal.FalStubs.aCall;
import static io.idem.providers.fal.FalStubs.adapter;
import static io.idem.providers.fal.FalStubs.refFor;
import static io.idem.providers.fal.FalStubs.submit;
import static io.idem.providers.http.VendorStandIn.closedOrigin;
import static io.idem.providers.http.VendorStandIn.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Sent versus not sent: what a failed submit means, and the key never showing. */
class FalTransportTest {
    @RegisterExtension
    static WireMockExtension wm = FalStubs.server();

    @Test
    void aClosedPortIsUnavailable() throws IOException {
        Outcome outcome = adapter(closedOrigin()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("connect_failed");
            assertThat(u.httpStatus()).isZero();
        });
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
    }

    @Test
    void aReadTimeoutAfterTheSubmitWasSentIsUnconfirmed() {
        wm.stubFor(submit().willReturn(json(200, "{}").withFixedDelay(3_000)));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall(Duration.ofSeconds(1)));

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("read_timeout"));
        assertThat(outcome.billable()).isEqualTo(Billable.UNKNOWN);
        wm.verify(1, postRequestedFor(urlPathEqualTo("/" + FalStubs.ENDPOINT)));
    }

    @Test
    void aConnectionResetAfterTheSubmitWasSentIsUnconfirmed() {
        wm.stubFor(submit().willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("connection_lost"));
        wm.verify(1, postRequestedFor(urlPathEqualTo("/" + FalStubs.ENDPOINT)));
    }

    @Test
    void theKeyNeverAppearsInAnOutcomeOrAnAnswer() {
        List<Object> answers = new ArrayList<>();
        FalAdapter adapter = adapter(wm.baseUrl());
        wm.stubFor(submit().willReturn(json(401, "{\"detail\":\"Invalid key\"}")));
        answers.add(adapter.generate(aCall()));
        wm.stubFor(submit().willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        var lost = aCall();
        answers.add(adapter.generate(lost));
        wm.stubFor(submit().willReturn(json(422, FalStubs.modelError("x", "bad"))));
        answers.add(adapter.generate(aCall()));
        answers.add(adapter.reconcile(refFor(lost, Optional.empty())));
        answers.add(adapter.reconcile(refFor(lost, Optional.of("abc"))));
        answers.add(adapter.cancel(refFor(lost, Optional.of("abc"))));

        assertThat(answers).hasSize(6).allSatisfy(a -> assertThat(a.toString()).doesNotContain(SECRET));
    }
}
