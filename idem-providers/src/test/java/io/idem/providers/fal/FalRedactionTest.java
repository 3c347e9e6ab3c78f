package io.idem.providers.fal;

import static io.idem.providers.fal.FalStubs.SECRET;
import static io.idem.providers.fal.FalStubs.aCall;
import static io.idem.providers.fal.FalStubs.adapter;
import static io.idem.providers.fal.FalStubs.submit;
import static io.idem.providers.http.EchoedCredentials.answer;
import static io.idem.providers.http.EchoedCredentials.assertRedacted;
import static io.idem.providers.http.EchoedCredentials.words;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.outcome.Outcome;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A vendor that quotes the key back in its error never puts it on a {@code fal} outcome (the
 * attacker-style review's finding: fal's {@code detail} reached the job's {@code error.message}).
 */
class FalRedactionTest {
    @RegisterExtension
    static WireMockExtension wm = FalStubs.server();

    @ParameterizedTest(name = "HTTP {0}, infrastructure shape")
    @ValueSource(ints = {401, 403, 400})
    void anInfrastructureErrorThatQuotesTheKeyKeepsItOffTheOutcome(int status) {
        wm.stubFor(submit().willReturn(answer(status, """
                {"detail": "%s", "error_type": "auth_failed"}""".formatted(words(SECRET)))));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOf(Outcome.Rejected.class);
        assertRedacted(outcome.toString(), "Key", SECRET);
    }

    @ParameterizedTest(name = "HTTP {0}, model shape")
    @ValueSource(ints = {401, 403, 400})
    void aModelErrorThatQuotesTheKeyKeepsItOffTheOutcome(int status) {
        wm.stubFor(submit().willReturn(answer(status, """
                {"detail": [{"loc": ["body", "prompt"], "msg": "%s", "type": "value_error"}]}""".formatted(words(SECRET)))));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOf(Outcome.Rejected.class);
        assertRedacted(outcome.toString(), "Key", SECRET);
    }
}
