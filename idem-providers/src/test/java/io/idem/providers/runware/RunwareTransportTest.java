package io.idem.providers.runware;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.idem.providers.runware.RunwareFixture.SECRET;
import static io.idem.providers.runware.RunwareFixture.aCall;
import static io.idem.providers.runware.RunwareFixture.accepted;
import static io.idem.providers.runware.RunwareFixture.json;
import static io.idem.providers.runware.RunwareFixture.refFor;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.http.Fault;
import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ReconcileAnswer;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The network, the credential, and calls refused before anything is sent. */
class RunwareTransportTest {
    @RegisterExtension
    static final RunwareFixture fixture = new RunwareFixture();

    @Test
    void aClosedPortIsUnavailableBecauseNothingWasSent() throws IOException {
        RunwareAdapter adapter = fixture.adapterAt(RunwareFixture.closedPort(), RunwareFixture.TUNING);
        GenerationCall call = aCall().build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class, u -> assertThat(u.code()).isEqualTo("connect_failed"));
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
        assertThat(adapter.reconcile(refFor(call, Instant.now()))).isInstanceOf(ReconcileAnswer.StillUnknown.class);
        assertThat(adapter.health().healthy()).isFalse();
    }

    @Test
    void aConnectionResetAfterSendingIsUnconfirmed() {
        GenerationCall call = aCall().build();
        fixture.onSubmit(call.reference(), aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));

        Outcome outcome = fixture.adapter().generate(call);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("connection_lost"));
    }

    @Test
    void aMissingCredentialIsRejectedWithoutSendingAnything() {
        RunwareAdapter adapter = fixture.adapterWithEnvironment(name -> null);

        Outcome outcome = adapter.generate(aCall().build());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG);
            assertThat(r.code()).isEqualTo("missing_credential");
            assertThat(r.message()).contains(RunwareFixture.KEY_ENV);
        });
        fixture.vendor.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aReferenceThatIsNotAUuidIsAnAdapterFaultBeforeSending() {
        Outcome outcome =
                fixture.adapter().generate(aCall().reference("att_123").build());

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.AdapterFault.class,
                        f -> assertThat(f.mayHaveSent()).isFalse());
        fixture.vendor.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aSizeThatIsNotWidthByHeightIsAUserErrorBeforeSending() {
        Outcome outcome = fixture.adapter().generate(aCall().size("huge").build());

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.USER_ERROR));
        fixture.vendor.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theCredentialNeverAppearsInAnyOutcomeEvenWhenTheVendorEchoesIt() {
        List<Object> answers = new ArrayList<>();
        GenerationCall refused = aCall().build();
        fixture.onSubmit(refused.reference(), json(401, """
                {"errors": [{"code": "invalidApiKey", "message": "Invalid API key %s (Bearer %s)",
                 "parameter": "apiKey", "taskType": "authentication"}]}
                """.formatted(SECRET, SECRET)));
        answers.add(fixture.adapter().generate(refused));
        GenerationCall failed = aCall().build();
        fixture.onSubmit(failed.reference(), json(200, accepted(failed.reference())));
        fixture.onLookup(
                failed.reference(),
                json(200, RunwareFixture.error(failed.reference(), "timeoutProvider", "provider said " + SECRET)));
        answers.add(fixture.adapter().generate(failed));
        answers.add(fixture.adapter().reconcile(refFor(failed, Instant.now())));
        GenerationCall reset = aCall().build();
        fixture.onSubmit(reset.reference(), aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));
        answers.add(fixture.adapter().generate(reset));

        assertThat(answers)
                .hasSize(4)
                .allSatisfy(answer -> assertThat(answer.toString()).doesNotContain(SECRET));
        assertThat(answers.getFirst())
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG));
    }

    @Test
    void healthSendsAPing() {
        fixture.vendor.stubFor(post(urlEqualTo("/v1"))
                .withRequestBody(matchingJsonPath("$[0].taskType", equalTo("ping")))
                .willReturn(json(200, "{\"data\": [{\"taskType\": \"ping\", \"pong\": true}]}")));

        assertThat(fixture.adapter().health().healthy()).isTrue();
    }
}
