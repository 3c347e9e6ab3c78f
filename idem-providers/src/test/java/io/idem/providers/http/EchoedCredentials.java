package io.idem.providers.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import io.idem.core.text.Redactor;

/**
 * A vendor that quotes back what it was sent, as OpenAI's 401 does and a careless proxy might: its
 * error bodies carry the {@code Authorization} header it received (filled in by WireMock's response
 * template), the key itself and a secret of the node. Each adapter's redaction test answers its
 * calls with these words and checks that none of them reaches an outcome.
 */
public final class EchoedCredentials {
    private EchoedCredentials() {}

    /** What the vendor says back: the header as received, {@code key}, and the node's secret. */
    public static String words(String key) {
        return "Authorization header was '{{{request.headers.Authorization}}}', key " + key + ", node "
                + VendorStandIn.NODE_SECRET;
    }

    /** A JSON answer with {@code status} whose {@code body} templates are filled from the request. */
    public static ResponseDefinitionBuilder answer(int status, String body) {
        return VendorStandIn.json(status, body).withTransformers("response-template");
    }

    /**
     * Asserts that {@code text} quotes neither {@code key} nor the header it travelled in nor the
     * node's secret, and that it did carry the vendor's words (so the check is not vacuous).
     */
    public static void assertRedacted(String text, String scheme, String key) {
        assertThat(text)
                .contains("Authorization header was")
                .contains(Redactor.MARK)
                .doesNotContain(scheme + " " + key)
                .doesNotContain(key)
                .doesNotContain(VendorStandIn.NODE_SECRET);
    }
}
