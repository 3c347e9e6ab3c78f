package io.idem.providers.fake;

import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.idem.providers.http.EchoedCredentials.answer;
import static io.idem.providers.http.EchoedCredentials.assertRedacted;
import static io.idem.providers.http.EchoedCredentials.words;
import static io.idem.providers.http.VendorStandIn.environmentWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.outcome.Outcome;
import io.idem.providers.http.CallBuilder;
import io.idem.providers.http.VendorStandIn;
import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A vendor speaking the fake's wire that quotes the key back never puts it on a {@code fake}
 * outcome (the fake vendor itself never echoes, so a stand-in plays it here).
 */
class FakeRedactionTest {
    private static final String KEY_ENV = "IDEM_TEST_FAKE_KEY";
    private static final String KEY = "plainFakeVendorKey0123456789";

    @RegisterExtension
    static WireMockExtension wm = VendorStandIn.extension();

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {401, 403, 400})
    void anErrorThatQuotesTheKeyKeepsItOffTheOutcome(int status) {
        wm.stubFor(post(urlEqualTo(VendorRoutes.GENERATIONS)).willReturn(answer(status, """
                {"error": {"code": "invalid_key", "message": "%s"}}""".formatted(words(KEY)))));
        FakeAdapter adapter = new FakeAdapter(
                VendorFixture.settings(URI.create(wm.baseUrl()), Optional.of(KEY_ENV)),
                VendorStandIn.client(),
                environmentWith(KEY_ENV, KEY),
                VendorStandIn.REDACTOR);

        Outcome outcome = adapter.generate(new CallBuilder("primary", VendorFixture.MODEL).build());

        assertThat(outcome).isInstanceOf(Outcome.Rejected.class);
        assertRedacted(outcome.toString(), "Bearer", KEY);
    }
}
