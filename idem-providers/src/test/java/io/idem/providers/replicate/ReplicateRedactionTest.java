package io.idem.providers.replicate;

import static io.idem.providers.http.EchoedCredentials.answer;
import static io.idem.providers.http.EchoedCredentials.assertRedacted;
import static io.idem.providers.http.EchoedCredentials.words;
import static io.idem.providers.replicate.ReplicateStubs.SECRET;
import static io.idem.providers.replicate.ReplicateStubs.aCall;
import static io.idem.providers.replicate.ReplicateStubs.adapter;
import static io.idem.providers.replicate.ReplicateStubs.create;
import static io.idem.providers.replicate.ReplicateStubs.prediction;
import static io.idem.providers.replicate.ReplicateStubs.problem;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.outcome.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A vendor that quotes the token back never puts it on a {@code replicate} outcome. */
class ReplicateRedactionTest {
    @RegisterExtension
    static WireMockExtension wm = ReplicateStubs.server();

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {401, 403, 400})
    void aProblemThatQuotesTheTokenKeepsItOffTheOutcome(int status) {
        wm.stubFor(create().willReturn(answer(status, problem(status, "Unauthenticated", words(SECRET)))));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOf(Outcome.Rejected.class);
        assertRedacted(outcome.toString(), "Bearer", SECRET);
    }

    @Test
    void aFailedPredictionWhoseErrorQuotesTheTokenKeepsItOffTheOutcome() {
        wm.stubFor(create().willReturn(answer(
                201, prediction(wm.baseUrl(), "failed").error(words(SECRET)).json())));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOf(Outcome.Unconfirmed.class);
        assertRedacted(outcome.toString(), "Bearer", SECRET);
    }
}
