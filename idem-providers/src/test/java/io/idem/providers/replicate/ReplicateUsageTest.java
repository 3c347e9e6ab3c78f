package io.idem.providers.replicate;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.idem.providers.http.VendorStandIn.environmentWith;
import static io.idem.providers.http.VendorStandIn.json;
import static io.idem.providers.replicate.ReplicateStubs.adapter;
import static io.idem.providers.replicate.ReplicateStubs.list;
import static io.idem.providers.replicate.ReplicateStubs.listing;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.UsageAnswer;
import io.idem.providers.http.EchoedCredentials;
import io.idem.providers.http.VendorStandIn;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code replicate}'s usage report for the invoice check against a stand-in of Replicate's
 * prediction list: the billable predictions of one UTC day, across pages, each at Idem's price,
 * and every way the list can fail to say anything.
 */
class ReplicateUsageTest {
    private static final LocalDate DAY = LocalDate.parse("2026-01-01");
    private static final String OTHER_MODEL = "stability-ai/sdxl";

    @RegisterExtension
    static WireMockExtension wm = ReplicateStubs.server();

    private static ReplicateStubs.Prediction p(String id, String status) {
        return new ReplicateStubs.Prediction(wm.baseUrl(), id, status).createdAt("2026-01-01T12:00:00Z");
    }

    private static Map<String, BigDecimal> costs(UsageAnswer answer) {
        assertThat(answer).isInstanceOf(UsageAnswer.Itemized.class);
        return ((UsageAnswer.Itemized) answer)
                .charges().stream()
                        .collect(Collectors.toMap(c -> c.requestId().orElseThrow(), UsageAnswer.Charge::costUsd));
    }

    private static ReplicateAdapter priced(PricingModel pricing, UnaryOperator<String> environment) {
        var settings = new ProviderSettings(
                "replicate",
                "replicate",
                new ProviderSettings.Endpoint(
                        URI.create(wm.baseUrl()), Optional.of(ReplicateStubs.KEY_VARIABLE), Duration.ofSeconds(2)),
                ReplicateStubs.MODEL,
                Map.of(),
                pricing,
                true,
                Capabilities.ANY,
                Optional.empty());
        return new ReplicateAdapter(
                settings, ReplicateStubs.CLIENT, environment, VendorStandIn.REDACTOR, InstantSource.system());
    }

    @Test
    void theDaysBillablePredictionsAcrossTwoPagesAreChargedAtIdemsPriceByPredictionId() {
        listing(
                wm,
                List.of(
                        List.of(
                                p("succeeded-two-images", "succeeded").metrics(2, 1.5),
                                p("failed-ran", "failed").error("CUDA out of memory"),
                                p("canceled-ran", "canceled").started(),
                                p("canceled-unstarted", "canceled").unstarted(),
                                p("aborted", "aborted").unstarted(),
                                p("still-starting", "starting"),
                                p("still-processing", "processing"),
                                p("from-the-web", "succeeded").fromTheWeb()),
                        List.of(
                                p("succeeded-one-output", "succeeded"),
                                p("succeeded-data-removed", "succeeded")
                                        .dataRemoved()
                                        .withoutMetrics(),
                                p("another-model", "succeeded").model(OTHER_MODEL),
                                p("first-instant", "succeeded").createdAt("2026-01-01T00:00:00.000Z"),
                                p("next-day", "succeeded").createdAt("2026-01-02T00:00:00.000Z"),
                                p("day-before", "succeeded").createdAt("2025-12-31T23:59:59.999Z"))));

        UsageAnswer answer = adapter(wm.baseUrl()).usage(DAY);

        assertThat(costs(answer))
                .containsOnlyKeys(
                        "succeeded-two-images",
                        "failed-ran",
                        "canceled-ran",
                        "succeeded-one-output",
                        "succeeded-data-removed",
                        "first-instant")
                .hasEntrySatisfying("succeeded-two-images", c -> assertThat(c).isEqualByComparingTo("0.006"))
                .hasEntrySatisfying("failed-ran", c -> assertThat(c).isEqualByComparingTo("0.003"))
                .hasEntrySatisfying("succeeded-data-removed", c -> assertThat(c).isEqualByComparingTo("0.003"));
        wm.verify(getRequestedFor(urlPathEqualTo("/v1/predictions"))
                .withHeader("Authorization", equalTo("Bearer " + ReplicateStubs.SECRET))
                .withQueryParam("created_after", equalTo("2026-01-01T00:00:00Z"))
                .withQueryParam("created_before", equalTo("2026-01-02T00:00:00Z")));
        wm.verify(1, getRequestedFor(urlPathEqualTo("/v1/predictions")).withQueryParam("cursor", equalTo("page-2")));
    }

    @Test
    void aPricePerSecondOfRunTimeChargesEachPredictionItsPredictTime() {
        listing(
                wm,
                List.of(List.of(
                        p("ran-2.5s", "succeeded").metrics(1, 2.5),
                        p("ran-0.4s", "failed").metrics(0, 0.4))));

        UsageAnswer answer = priced(
                        new PricingModel.PerVendorUnit("second", new BigDecimal("0.001")),
                        environmentWith(ReplicateStubs.KEY_VARIABLE, ReplicateStubs.SECRET))
                .usage(DAY);

        assertThat(costs(answer))
                .hasEntrySatisfying("ran-2.5s", c -> assertThat(c).isEqualByComparingTo("0.0025"))
                .hasEntrySatisfying("ran-0.4s", c -> assertThat(c).isEqualByComparingTo("0.0004"));
    }

    @Test
    void aClipIsChargedItsSecondsNotAnImage() {
        ReplicateStubs.Prediction clip = p("clip-6s", "succeeded").metrics(1, 84.0);
        clip.duration(6);
        listing(wm, List.of(List.of(clip, p("image", "succeeded").metrics(1, 1.0))));

        UsageAnswer answer = priced(
                        new PricingModel.PerImageAndSecond(
                                new PricingModel.PerImage(new BigDecimal("0.003")),
                                new PricingModel.PerOutputSecond(new BigDecimal("0.10"))),
                        environmentWith(ReplicateStubs.KEY_VARIABLE, ReplicateStubs.SECRET))
                .usage(DAY);

        assertThat(costs(answer))
                .hasEntrySatisfying("clip-6s", c -> assertThat(c).isEqualByComparingTo("0.60"))
                .hasEntrySatisfying("image", c -> assertThat(c).isEqualByComparingTo("0.003"));
    }

    @Test
    void aWrongTokenIsAFailedReadThatNeverQuotesIt() {
        listing(wm, List.of(List.of(p("succeeded", "succeeded"))));
        String wrong = "r8_wrong_token_do_not_print_0c3a";

        UsageAnswer answer = priced(
                        new PricingModel.PerImage(new BigDecimal("0.003")),
                        environmentWith(ReplicateStubs.KEY_VARIABLE, wrong))
                .usage(DAY);

        assertThat(answer).isInstanceOfSatisfying(UsageAnswer.Failed.class, f -> {
            assertThat(f.detail()).contains("HTTP 401");
            EchoedCredentials.assertRedacted(f.detail(), "Bearer", wrong);
        });
    }

    @Test
    void throttlingAServerErrorOrABodyWithoutResultsIsAFailedRead() {
        for (var refusal : List.of(
                json(429, ReplicateStubs.problem(429, "Request was throttled", "retry in 10s")),
                json(503, ReplicateStubs.problem(503, "Service Unavailable", "try later")),
                json(200, "{\"detail\":\"not a page\"}"))) {
            wm.stubFor(list().willReturn(refusal));
            assertThat(adapter(wm.baseUrl()).usage(DAY)).isInstanceOf(UsageAnswer.Failed.class);
        }
    }

    @Test
    void aListThatNeverEndsOrLeavesTheHostIsAFailedRead() {
        wm.stubFor(list().willReturn(
                        json(200, "{\"next\":\"" + wm.baseUrl() + "/v1/predictions?cursor=again\",\"results\":[]}")));
        assertThat(adapter(wm.baseUrl()).usage(DAY))
                .isInstanceOfSatisfying(
                        UsageAnswer.Failed.class,
                        f -> assertThat(f.detail()).contains(ReplicateUsage.MAX_PAGES + " pages"));

        wm.stubFor(list().willReturn(
                        json(200, "{\"next\":\"https://elsewhere.example/v1/predictions?cursor=2\",\"results\":[]}")));
        assertThat(adapter(wm.baseUrl()).usage(DAY)).isInstanceOf(UsageAnswer.Failed.class);
    }

    @Test
    void aPredictionWithoutACreationTimeIsAFailedReadNotAGuess() {
        ReplicateStubs.Prediction undated = p("undated", "succeeded");
        wm.stubFor(list().willReturn(
                        json(200, ReplicateStubs.page(undated.json().replace("\"created_at\"", "\"created\"")))));

        assertThat(adapter(wm.baseUrl()).usage(DAY)).isInstanceOf(UsageAnswer.Failed.class);
    }

    @Test
    void withoutItsTokenNothingIsAsked() {
        assertThat(ReplicateStubs.adapterWithoutKey(wm.baseUrl()).usage(DAY))
                .isInstanceOfSatisfying(
                        UsageAnswer.Failed.class, f -> assertThat(f.detail()).contains(ReplicateStubs.KEY_VARIABLE));
        wm.verify(0, getRequestedFor(urlPathEqualTo("/v1/predictions")));
    }
}
