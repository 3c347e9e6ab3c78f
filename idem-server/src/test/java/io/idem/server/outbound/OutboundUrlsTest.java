package io.idem.server.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.server.http.ApiError;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Where events may go: the URL rules, and the literal private addresses refused unless allowed. */
class OutboundUrlsTest {
    private final OutboundUrls guarded = new OutboundUrls(false);
    private final OutboundUrls open = new OutboundUrls(true);

    @ParameterizedTest(name = "{0} is taken")
    @ValueSource(
            strings = {
                "https://hooks.example.com/idem",
                "http://example.com:8080/a?b=c",
                "https://93.184.216.34/hook",
                "https://[2606:2800:220:1:248:1893:25c8:1946]/hook",
                "https://cafe.be/hook",
                "https://10.example.com/hook"
            })
    void publicAddressesAreTaken(String url) {
        assertThat(guarded.check("url", url)).hasToString(url);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "ftp://example.com/x, invalid_url",
        "example.com/hook, invalid_url",
        "https://, invalid_url",
        "'https://user:pw@example.com/', invalid_url",
        "https://example.com/#part, invalid_url",
        "'http://exa mple.com/', invalid_url",
        "http://127.0.0.1:9000/hook, url_not_allowed",
        "http://10.1.2.3/, url_not_allowed",
        "http://172.16.0.1/, url_not_allowed",
        "http://192.168.1.10/, url_not_allowed",
        "http://169.254.169.254/latest/meta-data, url_not_allowed",
        "http://100.64.0.1/, url_not_allowed",
        "http://0.0.0.0/, url_not_allowed",
        "http://224.0.0.1/, url_not_allowed",
        "'http://[::1]/hook', url_not_allowed",
        "'http://[fd00::1]/', url_not_allowed",
        "'http://[fe80::1]/', url_not_allowed",
        "'http://[::ffff:127.0.0.1]/', url_not_allowed",
        "'http://[::ffff:10.0.0.1]/', url_not_allowed",
        "http://localhost:8080/, url_not_allowed",
        "http://api.localhost/, url_not_allowed",
        "http://2130706433/, url_not_allowed",
        "http://0x7f.1/, invalid_url",
        "http://0177.0.0.1/, url_not_allowed",
        "http://127.1/, invalid_url"
    })
    void badOrPrivateAddressesAreRefused(String url, String code) {
        assertThatThrownBy(() -> guarded.check("url", url)).isInstanceOfSatisfying(ApiError.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.code()).isEqualTo(code);
        });
    }

    @ParameterizedTest(name = "{0} is taken when private addresses are allowed")
    @ValueSource(strings = {"http://127.0.0.1:9000/hook", "http://localhost/", "http://[::1]/", "http://10.0.0.7/"})
    void privateAddressesAreTakenWhenAllowed(String url) {
        assertThat(open.check("url", url)).hasToString(url);
    }

    @ParameterizedTest(name = "{0} is still not a URL when private addresses are allowed")
    @ValueSource(strings = {"ftp://127.0.0.1/", "http://", "'https://user:pw@127.0.0.1/'"})
    void malformedAddressesAreRefusedEvenWhenPrivateOnesAreAllowed(String url) {
        assertThatThrownBy(() -> open.check("callback_url", url))
                .isInstanceOfSatisfying(
                        ApiError.class, e -> assertThat(e.code()).isEqualTo("invalid_callback_url"));
    }

    @ParameterizedTest(name = "a URL of {0} characters is too long")
    @ValueSource(ints = {OutboundUrls.MAX_LENGTH + 1, 10_000})
    void overlongUrlsAreRefused(int length) {
        String url = "https://example.com/" + "a".repeat(length - "https://example.com/".length());
        assertThatThrownBy(() -> guarded.check("url", url))
                .isInstanceOfSatisfying(
                        ApiError.class, e -> assertThat(e.code()).isEqualTo("invalid_url"));
    }
}
