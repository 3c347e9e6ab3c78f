package io.idem.providers.openai;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.idem.providers.openai.OpenAiFixture.SECRET;
import static io.idem.providers.openai.OpenAiFixture.aCall;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.http.Fault;
import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.ReconcileAnswer;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The network, the credential, and what a synchronous vendor cannot do afterwards. */
class OpenAiTransportTest {
    @RegisterExtension
    static final OpenAiFixture fixture = new OpenAiFixture();

    @Test
    void aClosedPortIsUnavailableBecauseNothingWasSent() throws IOException {
        OpenAiImagesAdapter adapter = fixture.adapterAt(OpenAiFixture.closedPort(), OpenAiFixture.TUNING);

        Outcome outcome = adapter.generate(aCall().build());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("connect_failed");
            assertThat(u.httpStatus()).isZero();
        });
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
        assertThat(adapter.health().healthy()).isFalse();
    }

    @Test
    void aReadTimeoutAfterSendingIsUnconfirmed() {
        fixture.vendor.stubFor(post(urlEqualTo("/v1/images/generations"))
                .willReturn(okJson("{\"data\": []}").withFixedDelay(1_500)));

        Outcome outcome = fixture.adapter()
                .generate(aCall().timeout(Duration.ofMillis(300)).build());

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("read_timeout"));
        assertThat(outcome.billable()).isEqualTo(Billable.UNKNOWN);
    }

    @Test
    void aConnectionResetAfterSendingIsUnconfirmed() {
        fixture.vendor.stubFor(post(urlEqualTo("/v1/images/generations"))
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        Outcome outcome = fixture.adapter().generate(aCall().build());

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("connection_lost"));
    }

    @Test
    void anEmptyReplyAfterSendingIsUnconfirmed() {
        fixture.vendor.stubFor(post(urlEqualTo("/v1/images/generations"))
                .willReturn(aResponse().withFault(Fault.EMPTY_RESPONSE)));

        Outcome outcome = fixture.adapter().generate(aCall().build());

        assertThat(outcome).isInstanceOf(Outcome.Unconfirmed.class);
    }

    @Test
    void aMissingCredentialIsRejectedWithoutSendingAnything() {
        OpenAiImagesAdapter adapter = fixture.adapterWithEnvironment(name -> null);

        Outcome outcome = adapter.generate(aCall().build());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG);
            assertThat(r.code()).isEqualTo("missing_credential");
            assertThat(r.message()).contains(OpenAiFixture.KEY_ENV);
        });
        fixture.vendor.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theCredentialNeverAppearsInAnyOutcomeEvenWhenTheVendorEchoesIt() {
        List<Outcome> outcomes = new ArrayList<>();
        stub(
                401,
                "{\"error\": {\"message\": \"Incorrect API key provided: " + SECRET
                        + ". Also sk-test***7f3a.\", \"type\": \"invalid_request_error\", \"code\": \"invalid_api_key\"}}");
        outcomes.add(fixture.adapter().generate(aCall().build()));
        stub(
                400,
                "{\"error\": {\"message\": \"header was Authorization: Bearer " + SECRET
                        + "\", \"type\": \"invalid_request_error\", \"param\": \"prompt\"}}");
        outcomes.add(fixture.adapter().generate(aCall().build()));
        stub(500, "{\"error\": {\"message\": \"" + SECRET + "\", \"type\": \"server_error\"}}");
        outcomes.add(fixture.adapter().generate(aCall().build()));
        fixture.vendor.stubFor(post(urlEqualTo("/v1/images/generations"))
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        outcomes.add(fixture.adapter().generate(aCall().build()));

        assertThat(outcomes)
                .hasSize(4)
                .allSatisfy(outcome ->
                        assertThat(outcome.toString()).doesNotContain(SECRET).doesNotContain("7f3a"));
        assertThat(outcomes.getFirst())
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.message()).contains("Incorrect API key provided"));
    }

    @Test
    void reconcileIsUnsupportedSoAnUnconfirmedCallWaitsForAnOperator() {
        AttemptRef ref = new AttemptRef("openai", "att", Optional.of("req_1"), "gpt-image-1", Instant.now());

        assertThat(fixture.adapter().reconcile(ref)).isInstanceOf(ReconcileAnswer.Unsupported.class);
        fixture.vendor.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void healthAsksTheModelsList() {
        fixture.vendor.stubFor(
                get(urlEqualTo("/v1/models")).willReturn(okJson("{\"object\": \"list\", \"data\": []}")));

        assertThat(fixture.adapter().health().healthy()).isTrue();
    }

    @Test
    void healthIsDownWhenTheKeyIsRefused() {
        fixture.vendor.stubFor(
                get(urlEqualTo("/v1/models")).willReturn(aResponse().withStatus(401)));

        assertThat(fixture.adapter().health()).satisfies(h -> {
            assertThat(h.healthy()).isFalse();
            assertThat(h.detail()).contains("401");
        });
    }

    private static void stub(int status, String body) {
        fixture.vendor.stubFor(post(urlEqualTo("/v1/images/generations"))
                .willReturn(aResponse()
                        .withStatus(status)
                        .withHeader("Content-Type", "application/json")
                        .withBody(body)));
    }
}
