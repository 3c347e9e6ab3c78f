package io.idem.providers.runware;

import static io.idem.providers.http.EchoedCredentials.answer;
import static io.idem.providers.http.EchoedCredentials.assertRedacted;
import static io.idem.providers.http.EchoedCredentials.words;
import static io.idem.providers.http.VendorStandIn.json;
import static io.idem.providers.runware.RunwareFixture.SECRET;
import static io.idem.providers.runware.RunwareFixture.aCall;
import static io.idem.providers.runware.RunwareFixture.accepted;
import static io.idem.providers.runware.RunwareFixture.error;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.outcome.Outcome;
import io.idem.core.spi.GenerationCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A vendor that quotes the key back never puts it on a {@code runware} outcome. */
class RunwareRedactionTest {
    @RegisterExtension
    static final RunwareFixture fixture = new RunwareFixture();

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {401, 403, 400})
    void aRefusalThatQuotesTheKeyKeepsItOffTheOutcome(int status) {
        GenerationCall call = aCall().build();
        fixture.onSubmit(call.reference(), answer(status, error(call.reference(), "invalidApiKey", words(SECRET))));

        Outcome outcome = fixture.adapter().generate(call);

        assertThat(outcome).isInstanceOf(Outcome.Rejected.class);
        assertRedacted(outcome.toString(), "Bearer", SECRET);
    }

    @Test
    void aFailedTaskWhoseMessageQuotesTheKeyKeepsItOffTheOutcome() {
        GenerationCall call = aCall().build();
        fixture.onSubmit(call.reference(), json(200, accepted(call.reference())));
        fixture.onLookup(call.reference(), answer(200, """
                {"data": [{"taskType": "imageInference", "taskUUID": "%s", "status": "error",
                 "code": "providerError", "message": "%s"}]}""".formatted(call.reference(), words(SECRET))));

        Outcome outcome = fixture.adapter().generate(call);

        assertThat(outcome).isInstanceOf(Outcome.Unavailable.class);
        assertRedacted(outcome.toString(), "Bearer", SECRET);
    }
}
