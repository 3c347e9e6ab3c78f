package io.idem.providers.fal;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.idem.providers.fal.FalStubs.Listed.ok;
import static io.idem.providers.fal.FalStubs.REQUESTS;
import static io.idem.providers.fal.FalStubs.requests;
import static io.idem.providers.http.VendorStandIn.environmentWith;
import static io.idem.providers.http.VendorStandIn.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.UsageAnswer;
import io.idem.providers.http.EchoedCredentials;
import io.idem.providers.http.VendorStandIn;
import io.idem.providers.http.VideoStandIn;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
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
 * {@code fal}'s usage report for the invoice check against a stand-in of fal's platform API request
 * listing: the successful requests of one UTC day for every endpoint the provider names, across
 * pages, each at Idem's price, and every way the listing can fail to say anything.
 */
class FalUsageTest {
    private static final LocalDate DAY = LocalDate.parse("2026-11-30");
    private static final String SCHNELL = "fal-ai/flux/schnell";

    @RegisterExtension
    static WireMockExtension wm = FalStubs.server();

    private static FalAdapter adapter(UnaryOperator<String> environment) {
        var defaults = FalStubs.settings(URI.create(wm.baseUrl()));
        var settings = new ProviderSettings(
                defaults.name(),
                defaults.adapter(),
                defaults.endpoint(),
                FalStubs.ENDPOINT,
                Map.of("schnell", SCHNELL, "same-again", FalStubs.ENDPOINT),
                defaults.pricing(),
                true,
                defaults.capabilities(),
                Optional.empty());
        return new FalAdapter(
                settings, FalStubs.CLIENT, environment, VendorStandIn.REDACTOR, InstantSource.system(), FalStubs.FAST);
    }

    private static FalAdapter adapter() {
        return adapter(environmentWith(FalStubs.KEY_VARIABLE, FalStubs.SECRET));
    }

    private static Map<String, UsageAnswer.Charge> charges(UsageAnswer answer) {
        assertThat(answer).isInstanceOf(UsageAnswer.Itemized.class);
        return ((UsageAnswer.Itemized) answer)
                .charges().stream().collect(Collectors.toMap(c -> c.requestId().orElseThrow(), c -> c));
    }

    private static void nothingFor(String endpointId) {
        requests(wm, endpointId, 100, List.of());
    }

    @Test
    void theDaysSuccessfulRequestsAcrossTwoPagesAreChargedAtIdemsPriceByRequestId() {
        requests(
                wm,
                FalStubs.ENDPOINT,
                4,
                List.of(
                        ok("one-image", "2026-11-30T08:00:00Z"),
                        ok("two-images", "2026-11-30T09:00:00Z").images(2),
                        new FalStubs.Listed("user-error", "2026-11-30T10:00:00Z", 422, 0, true),
                        new FalStubs.Listed("server-error", "2026-11-30T10:30:00Z", 500, 0, true),
                        ok("no-payload", "2026-11-30T11:00:00Z").images(3).withoutOutput(),
                        ok("first-instant", "2026-11-30T00:00:00Z"),
                        ok("last-second", "2026-11-30T23:59:59Z"),
                        ok("next-day", "2026-12-01T00:00:00Z"),
                        ok("day-before", "2026-11-29T23:59:59Z")));
        requests(wm, SCHNELL, 100, List.of(ok("schnell-one", "2026-11-30T12:00:00Z")));

        Map<String, UsageAnswer.Charge> charges = charges(adapter().usage(DAY));

        assertThat(charges)
                .containsOnlyKeys(
                        "one-image", "two-images", "no-payload", "first-instant", "last-second", "schnell-one");
        assertThat(charges.get("one-image").costUsd()).isEqualByComparingTo("0.025");
        assertThat(charges.get("two-images").costUsd()).isEqualByComparingTo("0.050");
        assertThat(charges.get("no-payload").costUsd()).isEqualByComparingTo("0.075");
        assertThat(charges.get("last-second").at()).isEqualTo(Instant.parse("2026-11-30T23:59:59Z"));
        wm.verify(getRequestedFor(urlPathEqualTo(REQUESTS))
                .withHeader("Authorization", equalTo("Key " + FalStubs.SECRET))
                .withQueryParam("endpoint_id", equalTo(FalStubs.ENDPOINT))
                .withQueryParam("start", equalTo("2026-11-30T00:00:00Z"))
                .withQueryParam("end", equalTo("2026-12-01T01:00:00Z"))
                .withQueryParam("status", equalTo("success")));
        wm.verify(1, getRequestedFor(urlPathEqualTo(REQUESTS)).withQueryParam("cursor", equalTo(FalStubs.cursor(2))));
        wm.verify(
                2, getRequestedFor(urlPathEqualTo(REQUESTS)).withQueryParam("endpoint_id", equalTo(FalStubs.ENDPOINT)));
        wm.verify(1, getRequestedFor(urlPathEqualTo(REQUESTS)).withQueryParam("endpoint_id", equalTo(SCHNELL)));
    }

    @Test
    void aClipIsChargedTheSecondsItsInputAskedFor() {
        requests(
                wm,
                FalStubs.ENDPOINT,
                100,
                List.of(ok("clip-6s", "2026-11-30T08:00:00Z").clip(6)));
        FalAdapter perSecond = new FalAdapter(
                VideoStandIn.perSecond("fal", URI.create(wm.baseUrl()), FalStubs.KEY_VARIABLE, FalStubs.ENDPOINT),
                FalStubs.CLIENT,
                environmentWith(FalStubs.KEY_VARIABLE, FalStubs.SECRET),
                VendorStandIn.REDACTOR,
                InstantSource.system(),
                FalStubs.FAST);

        assertThat(charges(perSecond.usage(DAY)).get("clip-6s").costUsd()).isEqualByComparingTo("0.60");
    }

    @Test
    void aWrongKeyIsAFailedReadThatNeverQuotesIt() {
        nothingFor(FalStubs.ENDPOINT);
        nothingFor(SCHNELL);
        String wrong = "fal-wrong-key-do-not-print-7d21";

        UsageAnswer answer =
                adapter(environmentWith(FalStubs.KEY_VARIABLE, wrong)).usage(DAY);

        assertThat(answer).isInstanceOfSatisfying(UsageAnswer.Failed.class, f -> {
            assertThat(f.detail()).contains("HTTP 401");
            EchoedCredentials.assertRedacted(f.detail(), "Key", wrong);
        });
    }

    @Test
    void throttlingAServerErrorOrABodyWithoutItemsIsAFailedRead() {
        for (var refusal : List.of(
                json(429, FalStubs.infraError("Rate limit exceeded", "rate_limited")),
                json(502, "<html>Bad Gateway</html>"),
                json(200, "{\"detail\":\"not a page\"}"))) {
            wm.stubFor(get(urlPathEqualTo(REQUESTS)).willReturn(refusal));
            assertThat(adapter().usage(DAY)).isInstanceOf(UsageAnswer.Failed.class);
        }
    }

    @Test
    void aListingThatNeverEndsIsAFailedRead() {
        wm.stubFor(get(urlPathEqualTo(REQUESTS))
                .willReturn(json(200, "{\"items\":[],\"next_cursor\":\"Mg==\",\"has_more\":true}")));

        assertThat(adapter().usage(DAY))
                .isInstanceOfSatisfying(
                        UsageAnswer.Failed.class, f -> assertThat(f.detail()).contains(FalUsage.MAX_PAGES + " pages"));
    }

    @Test
    void withoutItsKeyNothingIsAsked() {
        assertThat(FalStubs.adapterWithoutKey(wm.baseUrl()).usage(DAY))
                .isInstanceOfSatisfying(
                        UsageAnswer.Failed.class, f -> assertThat(f.detail()).contains(FalStubs.KEY_VARIABLE));
        wm.verify(0, getRequestedFor(urlPathEqualTo(REQUESTS)));
    }

    @Test
    void fromFalsOwnQueueHostTheListingIsAskedOfThePlatformApi() {
        URI uri = FalEndpoints.of(FalEndpoints.DEFAULT_BASE)
                .billed(FalStubs.ENDPOINT, Instant.EPOCH, Instant.EPOCH.plus(Duration.ofDays(1)), Optional.empty());

        assertThat(uri.toString()).startsWith("https://api.fal.ai" + REQUESTS + "?endpoint_id=fal-ai%2Fflux%2Fdev");
        assertThat(FalEndpoints.of(URI.create(wm.baseUrl()))
                        .billed(FalStubs.ENDPOINT, Instant.EPOCH, Instant.EPOCH, Optional.of("Mg=="))
                        .toString())
                .startsWith(wm.baseUrl() + REQUESTS)
                .contains("&limit=100")
                .endsWith("&cursor=Mg%3D%3D");
    }
}
