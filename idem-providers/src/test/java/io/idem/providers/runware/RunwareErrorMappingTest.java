package io.idem.providers.runware;

import static io.idem.providers.runware.RunwareFixture.aCall;
import static io.idem.providers.runware.RunwareFixture.accepted;
import static io.idem.providers.runware.RunwareFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.AnswerRow;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One test per row of Runware's error mapping (runware.ai/docs/platform/errors): refusals of the
 * submit by status and code, and failures of an accepted task reported by getResponse.
 */
class RunwareErrorMappingTest {
    @RegisterExtension
    static final RunwareFixture fixture = new RunwareFixture();

    // In every row's body, %s stands for the task UUID.

    static Stream<AnswerRow> submitRows() {
        return Stream.of(
                new AnswerRow(
                        "400 invalidWidth (a parameter) is a user error",
                        400,
                        """
                        {"data": [], "errors": [{"code": "invalidWidth",
                         "message": "Invalid value for 'width' parameter.", "parameter": "width", "type": "integer", "min": 256, "max": 16383,
                         "taskType": "imageInference", "taskUUID": "%s"}]}
                        """,
                        Outcome.Rejected.class,
                        RejectionKind.USER_ERROR,
                        "invalidWidth"),
                new AnswerRow(
                        "400 about the model is config",
                        400,
                        """
                        {"errors": [{"code": "invalidModel", "message": "Invalid value for 'model' parameter.",
                         "parameter": "model", "taskType": "imageInference", "taskUUID": "%s"}]}
                        """,
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "invalidModel"),
                new AnswerRow(
                        "400 content moderation is a policy rejection",
                        400,
                        """
                        {"errors": [{"code": "contentModerationFailed", "message": "The prompt was flagged.",
                         "taskType": "imageInference", "taskUUID": "%s"}]}
                        """,
                        Outcome.Rejected.class,
                        RejectionKind.POLICY,
                        "contentModerationFailed"),
                new AnswerRow(
                        "401 invalidApiKey is config",
                        401,
                        """
                        {"errors": [{"code": "invalidApiKey",
                         "message": "Invalid API key. Get one at https://my.runware.ai/signup",
                         "parameter": "apiKey", "taskType": "authentication"}]}
                        """,
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "invalidApiKey"),
                new AnswerRow(
                        "402 insufficient credits is config",
                        402,
                        """
                        {"errors": [{"code": "insufficientCredits", "message": "Insufficient credits.",
                         "taskType": "imageInference", "taskUUID": "%s"}]}
                        """,
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "insufficientCredits"),
                new AnswerRow(
                        "403 forbidden is config", 403, """
                        {"errors": [{"code": "forbidden", "message": "The key may not use this model."}]}
                        """, Outcome.Rejected.class, RejectionKind.CONFIG, "forbidden"),
                new AnswerRow(
                        "404 is config (wrong endpoint or model)",
                        404,
                        "",
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "http_404"),
                new AnswerRow(
                        "429 is unavailable (throttled before queueing)",
                        429,
                        """
                        {"errors": [{"code": "rateLimitExceeded", "message": "Too many requests."}]}
                        """,
                        Outcome.Unavailable.class,
                        null,
                        "rateLimitExceeded"),
                new AnswerRow(
                        "503 answered promptly is unavailable",
                        503,
                        """
                        {"errors": [{"code": "serviceUnavailable", "message": "Try again later."}]}
                        """,
                        Outcome.Unavailable.class,
                        null,
                        "serviceUnavailable"),
                new AnswerRow(
                        "500 is unconfirmed (the task may be queued; reconcile asks)",
                        500,
                        """
                        {"errors": [{"code": "internalServerError", "message": "Unexpected error."}]}
                        """,
                        Outcome.Unconfirmed.class,
                        null,
                        "internalServerError"),
                new AnswerRow(
                        "502 without a body is unconfirmed", 502, "", Outcome.Unconfirmed.class, null, "http_502"),
                new AnswerRow(
                        "200 refusing the task in the acknowledgement is unavailable",
                        200,
                        """
                        {"data": [], "errors": [{"code": "queueFull", "message": "No capacity now.",
                         "taskType": "imageInference", "taskUUID": "%s"}]}
                        """,
                        Outcome.Unavailable.class,
                        null,
                        "queueFull"));
    }

    static Stream<AnswerRow> taskRows() {
        return Stream.of(
                new AnswerRow(
                        "a task failing with timeoutProvider is unavailable",
                        200,
                        """
                        {"errors": [{"code": "timeoutProvider", "message": "The provider timed out.",
                         "taskType": "imageInference", "taskUUID": "%s"}]}
                        """,
                        Outcome.Unavailable.class,
                        null,
                        "timeoutProvider"),
                new AnswerRow(
                        "an item in status error is unavailable",
                        200,
                        """
                        {"data": [{"taskType": "imageInference", "taskUUID": "%s", "status": "error",
                         "code": "providerError", "message": "Upstream failed."}]}
                        """,
                        Outcome.Unavailable.class,
                        null,
                        "providerError"),
                new AnswerRow(
                        "a task refused by the safety checker is a policy rejection",
                        200,
                        """
                        {"errors": [{"code": "nsfwContentDetected", "message": "NSFW content detected.",
                         "taskType": "imageInference", "taskUUID": "%s"}]}
                        """,
                        Outcome.Rejected.class,
                        RejectionKind.POLICY,
                        "nsfwContentDetected"),
                new AnswerRow(
                        "a task refused for its input is a user error",
                        200,
                        """
                        {"errors": [{"code": "invalidPrompt", "message": "Prompt too long.",
                         "parameter": "positivePrompt", "taskType": "imageInference", "taskUUID": "%s"}]}
                        """,
                        Outcome.Rejected.class,
                        RejectionKind.USER_ERROR,
                        "invalidPrompt"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("submitRows")
    void eachSubmitRefusalMapsToItsClass(AnswerRow row) {
        GenerationCall call = aCall().build();
        fixture.onSubmit(call.reference(), json(row.status(), row.body().formatted(call.reference())));

        Outcome outcome = fixture.adapter().generate(call);

        assertMaps(outcome, row);
        assertThat(outcome.httpStatus()).isEqualTo(row.status());
        assertThat(outcome.providerRequestId()).contains(call.reference());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("taskRows")
    void eachTaskFailureReportedByThePollMapsToItsClass(AnswerRow row) {
        GenerationCall call = aCall().build();
        fixture.onSubmit(call.reference(), json(200, accepted(call.reference())));
        fixture.onLookup(call.reference(), json(row.status(), row.body().formatted(call.reference())));

        Outcome outcome = fixture.adapter().generate(call);

        assertMaps(outcome, row);
        assertThat(outcome.providerRequestId()).contains(call.reference());
    }

    @Test
    void a503AfterTheWorkMayHaveRunIsUnconfirmed() {
        GenerationCall call = aCall().build();
        fixture.onSubmit(call.reference(), json(503, "").withFixedDelay(400));
        RunwareTuning slowIsLate = new RunwareTuning(
                Duration.ofMillis(20),
                Duration.ofMillis(60),
                Duration.ofSeconds(8),
                Duration.ofMillis(150),
                Duration.ofHours(1),
                Duration.ofSeconds(2),
                4096);

        Outcome outcome = fixture.adapter(slowIsLate).generate(call);

        assertThat(outcome).isInstanceOf(Outcome.Unconfirmed.class);
        assertThat(outcome.billable()).isEqualTo(Billable.UNKNOWN);
    }

    private static void assertMaps(Outcome outcome, AnswerRow row) {
        assertThat(outcome).isInstanceOf(row.outcome());
        String code = switch (outcome) {
            case Outcome.Rejected r -> {
                assertThat(r.kind()).isEqualTo(row.kind());
                yield r.code();
            }
            case Outcome.Unavailable u -> u.code();
            case Outcome.Unconfirmed u -> u.code();
            case Outcome.Confirmed c -> throw new AssertionError("confirmed " + c);
            case Outcome.AdapterFault f -> throw new AssertionError("fault " + f);
        };
        assertThat(code).isEqualTo(row.code());
    }
}
