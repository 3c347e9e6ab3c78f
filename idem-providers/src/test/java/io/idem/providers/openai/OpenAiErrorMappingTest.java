package io.idem.providers.openai;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.idem.providers.openai.OpenAiFixture.aCall;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.providers.http.AnswerRow;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One test per row of OpenAI's error table (vendor-apis.md §1), each replaying the vendor's
 * documented body: the outcome class, the rejection kind, the vendor's code and the request id.
 */
class OpenAiErrorMappingTest {
    @RegisterExtension
    static final OpenAiFixture fixture = new OpenAiFixture();

    static Stream<AnswerRow> rows() {
        return Stream.of(
                new AnswerRow(
                        "400 content_policy_violation (dall-e) is a policy rejection",
                        400,
                        error(
                                "Your request was rejected as a result of our safety system.",
                                "invalid_request_error",
                                null,
                                "content_policy_violation"),
                        Outcome.Rejected.class,
                        RejectionKind.POLICY,
                        "content_policy_violation"),
                new AnswerRow(
                        "400 moderation_blocked at input (GPT image) is a policy rejection",
                        400,
                        """
                        {"error": {"message": "Your request was rejected by the safety system.",
                          "type": "image_generation_user_error", "param": null, "code": "moderation_blocked",
                          "moderation_details": {"moderation_stage": "input", "categories": ["violence"]}}}
                        """,
                        Outcome.Rejected.class,
                        RejectionKind.POLICY,
                        "moderation_blocked"),
                new AnswerRow(
                        "400 invalid_request_error with a param is a user error",
                        400,
                        error(
                                "Invalid value: '999x999'. Supported values are: '1024x1024', '1536x1024'.",
                                "invalid_request_error",
                                "size",
                                "invalid_value"),
                        Outcome.Rejected.class,
                        RejectionKind.USER_ERROR,
                        "invalid_value"),
                new AnswerRow(
                        "400 invalid_request_error without a code keeps the type as code",
                        400,
                        error("You must provide n=1 for this model.", "invalid_request_error", "n", null),
                        Outcome.Rejected.class,
                        RejectionKind.USER_ERROR,
                        "invalid_request_error"),
                new AnswerRow(
                        "400 billing_hard_limit_reached is config",
                        400,
                        error(
                                "Billing hard limit has been reached",
                                "invalid_request_error",
                                null,
                                "billing_hard_limit_reached"),
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "billing_hard_limit_reached"),
                new AnswerRow(
                        "401 invalid_api_key is config",
                        401,
                        error(
                                "Incorrect API key provided: sk-test***7f3a. You can find your API key at"
                                        + " https://platform.openai.com/account/api-keys.",
                                "invalid_request_error",
                                null,
                                "invalid_api_key"),
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "invalid_api_key"),
                new AnswerRow(
                        "401 not a member of an organization is config",
                        401,
                        error(
                                "You must be a member of an organization to use the API.",
                                "invalid_request_error",
                                null,
                                "no_organization"),
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "no_organization"),
                new AnswerRow(
                        "403 unsupported region is config",
                        403,
                        error(
                                "Country, region, or territory not supported",
                                "request_forbidden",
                                null,
                                "unsupported_country_region_territory"),
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "unsupported_country_region_territory"),
                new AnswerRow(
                        "403 organization not verified for the model is config",
                        403,
                        error(
                                "Your organization must be verified to use the model `gpt-image-1`.",
                                "invalid_request_error",
                                null,
                                null),
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "invalid_request_error"),
                new AnswerRow(
                        "404 model_not_found is config",
                        404,
                        error(
                                "The model `gpt-image-9` does not exist or you do not have access to it.",
                                "invalid_request_error",
                                null,
                                "model_not_found"),
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "model_not_found"),
                new AnswerRow(
                        "429 rate_limit_exceeded is unavailable (the request was not run)",
                        429,
                        error(
                                "Rate limit reached for gpt-image-1 on images per minute: Limit 5.",
                                "requests",
                                null,
                                "rate_limit_exceeded"),
                        Outcome.Unavailable.class,
                        null,
                        "rate_limit_exceeded"),
                new AnswerRow(
                        "429 insufficient_quota is config (failover fine, another try here is not)",
                        429,
                        error(
                                "You exceeded your current quota, please check your plan and billing details.",
                                "insufficient_quota",
                                null,
                                "insufficient_quota"),
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "insufficient_quota"),
                new AnswerRow(
                        "429 credit_balance_exhausted is config",
                        429,
                        error(
                                "Your credit balance is exhausted.",
                                "insufficient_quota",
                                null,
                                "credit_balance_exhausted"),
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "credit_balance_exhausted"),
                new AnswerRow(
                        "500 server_error is unconfirmed (no documented no-charge promise)",
                        500,
                        error(
                                "The server had an error while processing your request. Sorry about that!",
                                "server_error",
                                null,
                                null),
                        Outcome.Unconfirmed.class,
                        null,
                        "server_error"),
                new AnswerRow(
                        "503 answered promptly is unavailable",
                        503,
                        error(
                                "The server is overloaded or not ready yet.",
                                "service_unavailable_error",
                                null,
                                "server_is_overloaded"),
                        Outcome.Unavailable.class,
                        null,
                        "server_is_overloaded"),
                new AnswerRow(
                        "502 from the edge (HTML) is unconfirmed",
                        502,
                        "<html><head><title>502 Bad Gateway</title></head><body>cloudflare</body></html>",
                        Outcome.Unconfirmed.class,
                        null,
                        "http_502"),
                new AnswerRow("504 from the edge is unconfirmed", 504, "", Outcome.Unconfirmed.class, null, "http_504"),
                new AnswerRow(
                        "409, a status images never send, is unconfirmed",
                        409,
                        error("Conflict", "invalid_request_error", null, null),
                        Outcome.Unconfirmed.class,
                        null,
                        "invalid_request_error"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void eachDocumentedAnswerMapsToItsClass(AnswerRow row) {
        answer(row.status(), row.body(), 0);

        Outcome outcome = fixture.adapter().generate(aCall().build());

        assertThat(outcome).isInstanceOf(row.outcome());
        assertThat(outcome.httpStatus()).isEqualTo(row.status());
        assertThat(outcome.providerRequestId()).contains("req_err");
        String code = switch (outcome) {
            case Outcome.Rejected r -> {
                assertThat(r.kind()).isEqualTo(row.kind());
                assertThat(r.unusable())
                        .as("every configuration answer here says the provider cannot serve us")
                        .isEqualTo(row.kind() == RejectionKind.CONFIG);
                yield r.code();
            }
            case Outcome.Unavailable u -> u.code();
            case Outcome.Unconfirmed u -> u.code();
            case Outcome.Confirmed c -> throw new AssertionError("confirmed " + c);
            case Outcome.AdapterFault f -> throw new AssertionError("fault " + f);
        };
        assertThat(code).isEqualTo(row.code());
    }

    @Test
    void outputModerationIsAPolicyRejectionThatSaysBillingIsUnknown() {
        answer(400, """
                {"error": {"message": "Your request was rejected by the safety system.",
                  "type": "image_generation_user_error", "param": null, "code": "moderation_blocked",
                  "moderation_details": {"moderation_stage": "output", "categories": ["sexual"]}}}
                """, 0);

        Outcome outcome = fixture.adapter().generate(aCall().build());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.POLICY);
            assertThat(r.code()).isEqualTo("moderation_blocked");
            assertThat(r.message()).contains("output moderation").contains("billing unknown");
        });
    }

    @Test
    void a503AfterTheWorkMayHaveRunIsUnconfirmed() {
        answer(
                503,
                error(
                        "The server is overloaded or not ready yet.",
                        "service_unavailable_error",
                        null,
                        "server_is_overloaded"),
                400);
        OpenAiImagesAdapter adapter =
                fixture.adapter(new OpenAiTuning(Duration.ofMillis(150), Duration.ofSeconds(2), 4096));

        Outcome outcome = adapter.generate(aCall().build());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("server_is_overloaded");
            assertThat(u.httpStatus()).isEqualTo(503);
        });
        assertThat(outcome.billable()).isEqualTo(Billable.UNKNOWN);
    }

    @Test
    void a429CarriesTheVendorsRetryAfterInMilliseconds() {
        fixture.vendor.stubFor(post(urlEqualTo("/v1/images/generations"))
                .willReturn(aResponse()
                        .withStatus(429)
                        .withHeader("Content-Type", "application/json")
                        .withHeader("retry-after-ms", "1500")
                        .withHeader("Retry-After", "2")
                        .withBody(error("Rate limit reached", "requests", null, "rate_limit_exceeded"))));

        Outcome outcome = fixture.adapter().generate(aCall().build());

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.retryAfter()).contains(Duration.ofMillis(1500)));
    }

    private static String error(String message, String type, String param, String code) {
        return """
                {"error": {"message": %s, "type": %s, "param": %s, "code": %s}}
                """.formatted(json(message), json(type), json(param), json(code));
    }

    private static String json(String text) {
        return text == null ? "null" : "\"" + text + "\"";
    }

    private static void answer(int status, String body, int delayMillis) {
        fixture.vendor.stubFor(post(urlEqualTo("/v1/images/generations"))
                .willReturn(aResponse()
                        .withStatus(status)
                        .withFixedDelay(delayMillis)
                        .withHeader("Content-Type", "application/json")
                        .withHeader("x-request-id", "req_err")
                        .withBody(body)));
    }
}
