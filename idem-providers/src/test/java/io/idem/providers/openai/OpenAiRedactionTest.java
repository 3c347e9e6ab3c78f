package io.idem.providers.openai;

import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.idem.providers.http.EchoedCredentials.answer;
import static io.idem.providers.http.EchoedCredentials.assertRedacted;
import static io.idem.providers.http.EchoedCredentials.words;
import static io.idem.providers.http.VendorStandIn.environmentWith;
import static io.idem.providers.openai.OpenAiFixture.KEY_ENV;
import static io.idem.providers.openai.OpenAiFixture.aCall;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.outcome.Outcome;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A vendor that quotes the key back in its error never puts it on an {@code openai_images} outcome. */
class OpenAiRedactionTest {
    /** No {@code sk-} shape: only the key itself being known can hide it. */
    private static final String KEY = "plainOpenAiKey0123456789";

    @RegisterExtension
    static final OpenAiFixture fixture = new OpenAiFixture();

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {401, 403, 400})
    void anErrorThatQuotesTheKeyAndItsHeaderKeepsNeitherOnTheOutcome(int status) {
        fixture.vendor.stubFor(
                post(urlEqualTo("/v1/images/generations")).willReturn(answer(status, """
                        {"error": {"message": "%s", "type": "invalid_request_error", "code": "invalid_api_key"}}
                        """.formatted(words(KEY)))));

        Outcome outcome =
                fixture.adapterWithEnvironment(environmentWith(KEY_ENV, KEY)).generate(aCall().build());

        assertThat(outcome).isInstanceOf(Outcome.Rejected.class);
        assertRedacted(outcome.toString(), "Bearer", KEY);
    }
}
