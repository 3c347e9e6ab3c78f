package io.idem.providers.runware;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static io.idem.providers.runware.RunwareFixture.JPEG;
import static io.idem.providers.runware.RunwareFixture.SECRET;
import static io.idem.providers.runware.RunwareFixture.aCall;
import static io.idem.providers.runware.RunwareFixture.accepted;
import static io.idem.providers.runware.RunwareFixture.json;
import static io.idem.providers.runware.RunwareFixture.lookup;
import static io.idem.providers.runware.RunwareFixture.processing;
import static io.idem.providers.runware.RunwareFixture.succeeded;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.GenerationCall;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Submit under our own task UUID, then poll getResponse until the task ends or the call times out. */
class RunwareGenerateTest {
    @RegisterExtension
    static final RunwareFixture fixture = new RunwareFixture();

    @Test
    void aTaskThatGoesFromProcessingToSuccessIsConfirmedAtRunwaresPrice() {
        List<String> submitted = new CopyOnWriteArrayList<>();
        GenerationCall call = aCall().listener(submitted::add).build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, accepted(task)));
        fixture.vendor.stubFor(lookup(task)
                .inScenario("poll")
                .whenScenarioStateIs(STARTED)
                .willReturn(json(200, processing(task)))
                .willSetStateTo("second"));
        fixture.vendor.stubFor(lookup(task)
                .inScenario("poll")
                .whenScenarioStateIs("second")
                .willReturn(json(200, processing(task)))
                .willSetStateTo("done"));
        fixture.vendor.stubFor(
                lookup(task).inScenario("poll").whenScenarioStateIs("done").willReturn(json(200, succeeded(task))));

        Outcome outcome = fixture.adapter().generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Confirmed.class, c -> {
            assertThat(c.result().media()).singleElement().satisfies(m -> {
                assertThat(m.bytes()).isEqualTo(JPEG);
                assertThat(m.mimeType()).isEqualTo("image/jpeg");
            });
            assertThat(c.requestId()).isEqualTo(task);
            assertThat(c.costUsd()).isEqualByComparingTo("0.0013");
        });
        assertThat(submitted).containsExactly(task);
        fixture.vendor.verify(
                3,
                postRequestedFor(urlEqualTo("/v1"))
                        .withRequestBody(matchingJsonPath("$[0].taskType", equalTo("getResponse"))));
    }

    @Test
    void theSubmitIsAnAsyncTaskUnderOurReferenceWithTheCallbackAsWebhook() {
        GenerationCall call = aCall().size("768x1344")
                .images(2)
                .callback(URI.create("https://idem.example/v1/hooks/runware?attempt=a&sig=s"))
                .build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, accepted(task)));
        fixture.onLookup(task, json(200, succeeded(task, 2)));

        assertThat(fixture.adapter().generate(call)).isInstanceOf(Outcome.Confirmed.class);

        fixture.vendor.verify(postRequestedFor(urlEqualTo("/v1"))
                .withHeader("Authorization", equalTo("Bearer " + SECRET))
                .withRequestBody(equalToJson("""
                        [{"taskType": "imageInference", "taskUUID": "%s",
                          "positivePrompt": "A lighthouse over a cloud ocean", "model": "runware:101@1",
                          "width": 768, "height": 1344, "numberResults": 2, "outputType": "base64Data",
                          "deliveryMethod": "async", "includeCost": true,
                          "webhookURL": "https://idem.example/v1/hooks/runware?attempt=a&sig=s"}]
                        """.formatted(task))));
    }

    @Test
    void theOutputFormatAndCompressionGoUnderRunwaresNamesWithTheProviderOptions() {
        GenerationCall call =
                aCall().image(io.idem.providers.http.CallBuilder.JPEG_AT_10).build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, accepted(task)));
        fixture.onLookup(task, json(200, succeeded(task, 1)));

        fixture.adapter().generate(call);

        fixture.vendor.verify(postRequestedFor(urlEqualTo("/v1"))
                .withRequestBody(matchingJsonPath("$[0].outputFormat", equalTo("JPG")))
                .withRequestBody(matchingJsonPath("$[0].outputQuality", equalTo("20")))
                .withRequestBody(matchingJsonPath("$[0].seed", equalTo("3"))));
    }

    @Test
    void withoutAStatedCostTheConfiguredPriceIsUsedPerImage() {
        GenerationCall call = aCall().images(2).build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, accepted(task)));
        String item = "{\"taskUUID\": \"%s\", \"status\": \"success\", \"imageBase64Data\": \"%s\"}"
                .formatted(task, RunwareFixture.JPEG_BASE64);
        fixture.onLookup(task, json(200, "{\"data\": [" + item + ", " + item + "]}"));

        Outcome outcome = fixture.adapter().generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Confirmed.class, c -> {
            assertThat(c.result().media()).hasSize(2);
            assertThat(c.costUsd()).isEqualByComparingTo("0.0076");
        });
    }

    @Test
    void aPartialSuccessIsPolledUntilEveryImageIsReady() {
        GenerationCall call = aCall().images(2).build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, accepted(task)));
        String item = "{\"taskUUID\": \"%s\", \"status\": \"success\", \"imageBase64Data\": \"%s\"}"
                .formatted(task, RunwareFixture.JPEG_BASE64);
        fixture.vendor.stubFor(lookup(task)
                .inScenario("partial")
                .whenScenarioStateIs(STARTED)
                .willReturn(json(200, "{\"data\": [" + item + "]}"))
                .willSetStateTo("all"));
        fixture.vendor.stubFor(lookup(task)
                .inScenario("partial")
                .whenScenarioStateIs("all")
                .willReturn(json(200, "{\"data\": [" + item + ", " + item + "]}")));

        Outcome outcome = fixture.adapter().generate(call);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Confirmed.class,
                        c -> assertThat(c.result().media()).hasSize(2));
    }

    @Test
    void aUrlResultIsFetchedIntoHand() {
        GenerationCall call = aCall().build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, accepted(task)));
        fixture.onLookup(task, json(200, """
                {"data": [{"taskUUID": "%s", "status": "success", "imageURL": "%s/image/ws/2/ii/a.jpg"}]}
                """.formatted(task, fixture.vendor.baseUrl())));
        fixture.vendor.stubFor(get(urlEqualTo("/image/ws/2/ii/a.jpg"))
                .willReturn(aResponse().withHeader("Content-Type", "image/jpeg").withBody(JPEG)));

        Outcome outcome = fixture.adapter().generate(call);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Confirmed.class,
                        c -> assertThat(c.result().media().getFirst().bytes()).isEqualTo(JPEG));
    }

    @Test
    void aUrlOfTheWrongTypeIsUnconfirmedSoReconcileCanFetchItAgain() {
        GenerationCall call = aCall().build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, accepted(task)));
        fixture.onLookup(task, json(200, """
                {"data": [{"taskUUID": "%s", "status": "success", "imageURL": "%s/image/oops"}]}
                """.formatted(task, fixture.vendor.baseUrl())));
        fixture.vendor.stubFor(get(urlEqualTo("/image/oops"))
                .willReturn(aResponse()
                        .withHeader("Content-Type", "application/json")
                        .withBody("{}")));

        Outcome outcome = fixture.adapter().generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("result_download_failed");
            assertThat(u.requestId()).isEqualTo(task);
        });
    }

    @Test
    void lookupFailuresWhilePollingAreRiddenOut() {
        GenerationCall call = aCall().build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, accepted(task)));
        fixture.vendor.stubFor(lookup(task)
                .inScenario("flaky")
                .whenScenarioStateIs(STARTED)
                .willReturn(json(
                        500,
                        "{\"errors\": [{\"code\": \"internalError\", \"message\": \"oops\","
                                + " \"taskType\": \"getResponse\"}]}"))
                .willSetStateTo("ok"));
        fixture.vendor.stubFor(
                lookup(task).inScenario("flaky").whenScenarioStateIs("ok").willReturn(json(200, succeeded(task))));

        assertThat(fixture.adapter().generate(call)).isInstanceOf(Outcome.Confirmed.class);
    }

    @Test
    void aTaskStillRunningAtTheCallTimeoutIsUnconfirmedWithItsTaskUuid() {
        List<String> submitted = new CopyOnWriteArrayList<>();
        GenerationCall call =
                aCall().timeout(Duration.ofMillis(400)).listener(submitted::add).build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, accepted(task)));
        fixture.onLookup(task, json(200, processing(task)));

        Outcome outcome = fixture.adapter().generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("poll_timeout");
            assertThat(u.requestId()).isEqualTo(task);
            assertThat(u.message()).contains("did not finish");
        });
        assertThat(outcome.billable()).isEqualTo(Billable.UNKNOWN);
        assertThat(submitted).containsExactly(task);
    }

    @Test
    void anAnswerThatIsAlreadyTheResultNeedsNoPoll() {
        GenerationCall call = aCall().build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, succeeded(task)));

        assertThat(fixture.adapter().generate(call)).isInstanceOf(Outcome.Confirmed.class);
        fixture.vendor.verify(
                0,
                postRequestedFor(urlEqualTo("/v1"))
                        .withRequestBody(matchingJsonPath("$[0].taskType", equalTo("getResponse"))));
    }

    @Test
    void a202AcknowledgementIsAnAcceptance() {
        GenerationCall call = aCall().build();
        String task = call.reference();
        fixture.onSubmit(task, json(202, accepted(task)));
        fixture.onLookup(task, json(200, succeeded(task)));

        assertThat(fixture.adapter().generate(call)).isInstanceOf(Outcome.Confirmed.class);
    }

    @Test
    void anUnreadableAcceptanceIsStillPolledBecauseTheTaskHasOurUuid() {
        GenerationCall call = aCall().build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, "accepted"));
        fixture.onLookup(task, json(200, succeeded(task)));

        assertThat(fixture.adapter().generate(call)).isInstanceOf(Outcome.Confirmed.class);
    }
}
