package io.idem.providers.replicate;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.idem.providers.http.VendorStandIn.json;
import static io.idem.providers.replicate.ReplicateStubs.aCall;
import static io.idem.providers.replicate.ReplicateStubs.adapter;
import static io.idem.providers.replicate.ReplicateStubs.create;
import static io.idem.providers.replicate.ReplicateStubs.prediction;
import static io.idem.providers.replicate.ReplicateStubs.problem;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.AttemptListener;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One test per row of Replicate's create error mapping (vendor-apis §4 "Mapping"), and routing. */
class ReplicateCreateMappingTest {
    private static final String VERSION = "5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa";

    @RegisterExtension
    static WireMockExtension wm = ReplicateStubs.server();

    private Outcome createAnswered(int status, String body) {
        wm.stubFor(create().willReturn(json(status, body)));
        return adapter(wm.baseUrl()).generate(aCall());
    }

    @Test
    void badTokenIsAConfigRejection() {
        Outcome outcome =
                createAnswered(401, problem(401, "Unauthenticated", "You did not pass a valid authentication token"));

        assertRejected(outcome, RejectionKind.CONFIG, "unauthenticated", 401);
    }

    @Test
    void spendLimitIsAConfigRejection() {
        Outcome outcome = createAnswered(
                402, problem(402, "Insufficient credit", "You have insufficient credit to run this model."));

        assertRejected(outcome, RejectionKind.CONFIG, "insufficient_credit", 402);
    }

    @Test
    void forbiddenIsAConfigRejection() {
        Outcome outcome = createAnswered(403, problem(403, "Forbidden", "You do not have permission"));

        assertRejected(outcome, RejectionKind.CONFIG, "forbidden", 403);
    }

    @Test
    void unknownModelIsAConfigRejection() {
        Outcome outcome = createAnswered(404, problem(404, "Not found", "The requested resource could not be found."));

        assertRejected(outcome, RejectionKind.CONFIG, "not_found", 404);
    }

    @Test
    void invalidInputIsAUserErrorWithTheVendorsFieldType() {
        Outcome outcome = createAnswered(422, """
                {"title":"Input validation failed","status":422,"detail":"- input.width: Must be less than or equal to 1440",
                 "invalid_fields":[{"type":"less_than_equal","field":"input.width","description":"Must be less than or equal to 1440"}]}""");

        assertRejected(outcome, RejectionKind.USER_ERROR, "less_than_equal", 422);
        assertThat(((Outcome.Rejected) outcome).message()).contains("1440");
    }

    @Test
    void throttlingIsUnavailable() {
        wm.stubFor(
                create().willReturn(json(429, problem(429, "Request was throttled", "Expected available in 1 second."))
                        .withHeader("Retry-After", "1")));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("request_was_throttled");
            assertThat(u.httpStatus()).isEqualTo(429);
        });
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
    }

    @Test
    void aServerErrorOnCreateIsUnconfirmed() {
        Outcome outcome = createAnswered(500, problem(500, "Internal server error", "Something went wrong"));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("internal_server_error");
            assertThat(u.httpStatus()).isEqualTo(500);
        });
    }

    @Test
    void aCreatedAnswerWithoutAPredictionIsUnconfirmed() {
        Outcome outcome = createAnswered(201, "{\"status\":\"starting\"}");

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("malformed_create"));
    }

    @Test
    void aMissingTokenIsRejectedWithoutSendingAnything() {
        Outcome outcome = ReplicateStubs.adapterWithoutKey(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG);
            assertThat(r.code()).isEqualTo("missing_credential");
            assertThat(r.message()).contains("REPLICATE_API_TOKEN");
        });
        wm.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aVersionedModelIsCreatedThroughPredictionsWithItsVersion() {
        wm.stubFor(post(urlPathEqualTo("/v1/predictions"))
                .willReturn(json(
                        201, prediction(wm.baseUrl(), "aborted").unstarted().json())));

        adapter(wm.baseUrl())
                .generate(aCall("acme/sdxl:" + VERSION, Duration.ofSeconds(5), AttemptListener.NONE, Optional.empty()));

        wm.verify(postRequestedFor(urlPathEqualTo("/v1/predictions"))
                .withRequestBody(matchingJsonPath(
                        "$.version", com.github.tomakehurst.wiremock.client.WireMock.equalTo(VERSION))));
    }

    @Test
    void theOutputFormatAndQualityGoUnderReplicatesNamesWithTheProviderOptions() {
        wm.stubFor(post(urlPathEqualTo("/v1/predictions"))
                .willReturn(json(
                        201, prediction(wm.baseUrl(), "aborted").unstarted().json())));

        adapter(wm.baseUrl())
                .generate(io.idem.providers.http.CallBuilder.withImage(
                        aCall("acme/sdxl:" + VERSION, Duration.ofSeconds(5), AttemptListener.NONE, Optional.empty()),
                        io.idem.providers.http.CallBuilder.JPEG_AT_10));

        wm.verify(postRequestedFor(urlPathEqualTo("/v1/predictions"))
                .withRequestBody(matchingJsonPath("$.input.output_format", WireMock.equalTo("jpg")))
                .withRequestBody(matchingJsonPath("$.input.output_quality", WireMock.equalTo("10")))
                .withRequestBody(matchingJsonPath("$.input.seed", WireMock.equalTo("3"))));
    }

    @Test
    void aDeploymentIsCreatedThroughItsOwnPath() {
        wm.stubFor(post(urlPathEqualTo("/v1/deployments/acme/image-app/predictions"))
                .willReturn(json(
                        201, prediction(wm.baseUrl(), "aborted").unstarted().json())));

        Outcome outcome = adapter(wm.baseUrl())
                .generate(aCall(
                        "deployments/acme/image-app", Duration.ofSeconds(5), AttemptListener.NONE, Optional.empty()));

        assertThat(outcome).isInstanceOf(Outcome.Unavailable.class);
    }

    @Test
    void aMalformedModelIsRejectedWithoutSendingAnything() {
        Outcome outcome = adapter(wm.baseUrl())
                .generate(aCall("../../v1/account", Duration.ofSeconds(5), AttemptListener.NONE, Optional.empty()));

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
