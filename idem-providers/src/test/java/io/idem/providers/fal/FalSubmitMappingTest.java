package io.idem.providers.fal;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static io.idem.providers.fal.FalStubs.aCall;
import static io.idem.providers.fal.FalStubs.adapter;
import static io.idem.providers.fal.FalStubs.infraError;
import static io.idem.providers.fal.FalStubs.modelError;
import static io.idem.providers.fal.FalStubs.submit;
import static io.idem.providers.http.VendorStandIn.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One test per row of fal's submit error mapping (vendor-apis §3 "Mapping"). */
class FalSubmitMappingTest {
    @RegisterExtension
    static WireMockExtension wm = FalStubs.server();

    private Outcome submitAnswered(int status, String body) {
        wm.stubFor(submit().willReturn(json(status, body)));
        return adapter(wm.baseUrl()).generate(aCall());
    }

    @Test
    void badKeyIsAConfigRejection() {
        Outcome outcome = submitAnswered(401, "{\"detail\":\"Invalid key\"}");

        assertRejected(outcome, RejectionKind.CONFIG, "http_401", 401);
    }

    @Test
    void lockedAccountIsAConfigRejection() {
        Outcome outcome = submitAnswered(403, "{\"detail\":\"User is locked. Reason: Exhausted balance.\"}");

        assertRejected(outcome, RejectionKind.CONFIG, "http_403", 403);
        assertThat(((Outcome.Rejected) outcome).message()).contains("Exhausted balance");
    }

    @Test
    void unknownEndpointIsAConfigRejection() {
        Outcome outcome = submitAnswered(404, "{\"detail\":\"Application 'nope' not found\"}");

        assertRejected(outcome, RejectionKind.CONFIG, "http_404", 404);
    }

    @Test
    void contentPolicyViolationIsAPolicyRejectionWithTheVendorsType() {
        Outcome outcome = submitAnswered(
                422, modelError("content_policy_violation", "The content was flagged by a content checker."));

        assertRejected(outcome, RejectionKind.POLICY, "content_policy_violation", 422);
        assertThat(((Outcome.Rejected) outcome).message()).contains("flagged");
    }

    @Test
    void otherValidationErrorIsAUserErrorWithTheVendorsType() {
        Outcome outcome = submitAnswered(422, modelError("image_too_large", "Image dimensions are too large."));

        assertRejected(outcome, RejectionKind.USER_ERROR, "image_too_large", 422);
    }

    @Test
    void rateLimitIsUnavailable() {
        Outcome outcome = submitAnswered(429, infraError("Too many requests", "rate_limited"));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("rate_limited");
            assertThat(u.httpStatus()).isEqualTo(429);
        });
    }

    @Test
    void runnerFailureIsUnavailableAndNeverBilled() {
        wm.stubFor(submit().willReturn(json(503, infraError("No runner available", "runner_scheduling_failure"))
                .withHeader("x-fal-request-id", "gw-1")));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("runner_scheduling_failure");
            assertThat(u.httpStatus()).isEqualTo(503);
            assertThat(u.requestId()).isEqualTo("gw-1");
        });
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
    }

    @Test
    void ingressErrorWithoutARequestIdIsUnavailable() {
        wm.stubFor(submit().willReturn(aResponse()
                .withStatus(502)
                .withHeader("Content-Type", "text/html")
                .withBody("<html><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></html>")));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("http_502");
            assertThat(u.requestId()).isNull();
        });
    }

    @Test
    void errorTypeHeaderNamesTheCodeWhenTheBodyDoesNot() {
        wm.stubFor(submit().willReturn(aResponse().withStatus(504).withHeader("X-Fal-Error-Type", "startup_timeout")));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class, u -> assertThat(u.code()).isEqualTo("startup_timeout"));
    }

    @Test
    void aStatusFalNeverDocumentsIsUnconfirmed() {
        Outcome outcome = submitAnswered(409, "{\"detail\":\"conflict\"}");

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("unexpected_status"));
    }

    @Test
    void anAcceptedSubmitWithoutARequestIdIsUnconfirmed() {
        Outcome outcome = submitAnswered(200, "{\"queue_position\":0}");

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("malformed_submit"));
    }

    @Test
    void aMissingKeyIsRejectedWithoutSendingAnything() {
        Outcome outcome = FalStubs.adapterWithoutKey(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG);
            assertThat(r.code()).isEqualTo("missing_credential");
            assertThat(r.message()).contains("FAL_KEY");
        });
        wm.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aMalformedEndpointIdIsRejectedWithoutSendingAnything() {
        var call = aCall();
        var bad = new io.idem.core.spi.GenerationCall(
                call.provider(),
                "../admin",
                call.request(),
                call.timeout(),
                call.reference(),
                call.simulate(),
                call.listener());

        Outcome outcome = adapter(wm.baseUrl()).generate(bad);

        assertRejected(outcome, RejectionKind.CONFIG, "invalid_model", 0);
        wm.verify(0, anyRequestedFor(anyUrl()));
    }

    private static void assertRejected(Outcome outcome, RejectionKind kind, String code, int status) {
        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(kind);
            assertThat(r.code()).isEqualTo(code);
            assertThat(r.httpStatus()).isEqualTo(status);
        });
    }
}
