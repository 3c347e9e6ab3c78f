package io.idem.providers.openai;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.UsageAnswer;
import java.time.Duration;
import java.time.InstantSource;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code openai_images}' usage report against a stand-in of OpenAI's organization costs API: the
 * admin key from {@code usage_key_env}, one UTC day's bucket, pages followed, and every way the
 * report can fail to say anything.
 */
class OpenAiCostsTest {
    private static final String ADMIN_ENV = "IDEM_TEST_OPENAI_ADMIN_KEY";
    private static final String ADMIN_KEY = "sk-admin-test-do-not-print-99";
    private static final LocalDate DAY = LocalDate.parse("2026-11-30");
    private static final long START = 1_795_996_800L; // 2026-11-30T00:00:00Z
    private static final String PATH = "/v1/organization/costs";

    @RegisterExtension
    static final OpenAiFixture fixture = new OpenAiFixture();

    private static UnaryOperator<String> keys() {
        return name -> switch (name) {
            case OpenAiFixture.KEY_ENV -> OpenAiFixture.SECRET;
            case ADMIN_ENV -> ADMIN_KEY;
            default -> null;
        };
    }

    private static OpenAiImagesAdapter adapter(Optional<String> usageKeyEnv, UnaryOperator<String> environment) {
        var settings = new ProviderSettings(
                "openai",
                "openai_images",
                new ProviderSettings.Endpoint(
                        fixture.baseUrl(), Optional.of(OpenAiFixture.KEY_ENV), Duration.ofSeconds(2), usageKeyEnv),
                OpenAiFixture.MODEL,
                Map.of(),
                new PricingModel.PerImage(OpenAiFixture.PRICE),
                true,
                Capabilities.ANY,
                Optional.empty());
        return new OpenAiImagesAdapter(
                settings,
                fixture.client,
                environment,
                OpenAiFixture.REDACTOR,
                OpenAiFixture.TUNING,
                InstantSource.system());
    }

    private static String bucket(String... amounts) {
        StringBuilder results = new StringBuilder();
        for (String amount : amounts) {
            results.append(results.isEmpty() ? "" : ",")
                    .append("{\"object\": \"organization.costs.result\", \"amount\": {\"value\": ")
                    .append(amount)
                    .append(", \"currency\": \"usd\"}, \"line_item\": null, \"project_id\": null}");
        }
        return "{\"object\": \"bucket\", \"start_time\": " + START + ", \"end_time\": " + (START + 86_400)
                + ", \"results\": [" + results + "]}";
    }

    @Test
    void theDaysBucketsAreSummedAcrossPagesWithTheAdminKey() {
        fixture.vendor.stubFor(get(urlPathEqualTo(PATH))
                .withQueryParam("page", com.github.tomakehurst.wiremock.client.WireMock.absent())
                .willReturn(aResponse()
                        .withStatus(200)
                        .withBody("{\"object\": \"page\", \"data\": [" + bucket("1.25", "0.50")
                                + "], \"has_more\": true, \"next_page\": \"page_2\"}")));
        fixture.vendor.stubFor(get(urlPathEqualTo(PATH))
                .withQueryParam("page", equalTo("page_2"))
                .willReturn(aResponse()
                        .withStatus(200)
                        .withBody("{\"object\": \"page\", \"data\": [" + bucket("0.25")
                                + "], \"has_more\": false, \"next_page\": null}")));

        UsageAnswer answer = adapter(Optional.of(ADMIN_ENV), keys()).usage(DAY);

        assertThat(answer)
                .isInstanceOfSatisfying(
                        UsageAnswer.Total.class, t -> assertThat(t.usd()).isEqualByComparingTo("2.00"));
        fixture.vendor.verify(getRequestedFor(urlPathEqualTo(PATH))
                .withHeader("Authorization", equalTo("Bearer " + ADMIN_KEY))
                .withQueryParam("start_time", equalTo(Long.toString(START)))
                .withQueryParam("end_time", equalTo(Long.toString(START + 86_400)))
                .withQueryParam("bucket_width", equalTo("1d")));
    }

    @Test
    void withoutAnAdminKeyNamedTheReportIsUnsupportedAndNothingIsAsked() {
        assertThat(adapter(Optional.empty(), keys()).usage(DAY)).isInstanceOf(UsageAnswer.Unsupported.class);
        assertThat(adapter(Optional.of(ADMIN_ENV), name -> null).usage(DAY))
                .isInstanceOfSatisfying(
                        UsageAnswer.Failed.class, f -> assertThat(f.detail()).contains(ADMIN_ENV));
        fixture.vendor.verify(0, getRequestedFor(urlPathEqualTo(PATH)));
    }

    @Test
    void aRefusalAnotherCurrencyOrABodyWithoutDataSaysNothingAndNeverQuotesTheKey() {
        fixture.vendor.stubFor(get(urlPathEqualTo(PATH))
                .willReturn(aResponse()
                        .withStatus(401)
                        .withBody("{\"error\": {\"message\": \"Incorrect API key provided: " + ADMIN_KEY + "\"}}")));
        UsageAnswer refused = adapter(Optional.of(ADMIN_ENV), keys()).usage(DAY);
        assertThat(refused).isInstanceOf(UsageAnswer.Failed.class);
        assertThat(refused.toString()).doesNotContain(ADMIN_KEY).contains("401");

        fixture.vendor.stubFor(get(urlPathEqualTo(PATH))
                .willReturn(aResponse()
                        .withStatus(200)
                        .withBody("{\"data\": [" + bucket("1").replace("\"usd\"", "\"eur\"") + "]}")));
        assertThat(adapter(Optional.of(ADMIN_ENV), keys()).usage(DAY)).isInstanceOf(UsageAnswer.Failed.class);

        fixture.vendor.stubFor(
                get(urlPathEqualTo(PATH)).willReturn(aResponse().withStatus(200).withBody("{\"object\": \"page\"}")));
        assertThat(adapter(Optional.of(ADMIN_ENV), keys()).usage(DAY)).isInstanceOf(UsageAnswer.Failed.class);
    }
}
