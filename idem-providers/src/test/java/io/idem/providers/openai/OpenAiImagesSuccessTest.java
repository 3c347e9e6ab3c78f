package io.idem.providers.openai;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.idem.providers.openai.OpenAiFixture.PNG;
import static io.idem.providers.openai.OpenAiFixture.PNG_BASE64;
import static io.idem.providers.openai.OpenAiFixture.SECRET;
import static io.idem.providers.openai.OpenAiFixture.aCall;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The documented 200 answers: images inline ({@code b64_json}) or as URLs to fetch. */
class OpenAiImagesSuccessTest {
    @RegisterExtension
    static final OpenAiFixture fixture = new OpenAiFixture();

    @Test
    void anInlineImageIsConfirmedWithTheRequestIdAndTheConfiguredPrice() {
        answer(200, """
                {"created": 1760000000, "output_format": "png", "size": "1024x1024",
                 "data": [{"b64_json": "%s", "revised_prompt": null, "url": null}],
                 "usage": {"input_tokens": 50, "output_tokens": 4160, "total_tokens": 4210}}
                """.formatted(PNG_BASE64));
        List<String> submitted = new CopyOnWriteArrayList<>();

        Outcome outcome =
                fixture.adapter().generate(aCall().listener(submitted::add).build());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Confirmed.class, c -> {
            assertThat(c.result().media()).singleElement().satisfies(m -> {
                assertThat(m.bytes()).isEqualTo(PNG);
                assertThat(m.mimeType()).isEqualTo("image/png");
            });
            assertThat(c.requestId()).isEqualTo("req_123");
            assertThat(c.costUsd()).isEqualByComparingTo("0.04");
        });
        assertThat(submitted).containsExactly("req_123");
    }

    @Test
    void theRequestCarriesTheVendorModelPromptSizeAndKey() {
        answer(200, "{\"data\": [{\"b64_json\": \"" + PNG_BASE64 + "\"}]}");

        fixture.adapter()
                .generate(aCall().vendorModel("dall-e-3").size("1792x1024").build());

        fixture.vendor.verify(postRequestedFor(urlEqualTo("/v1/images/generations"))
                .withHeader("Authorization", equalTo("Bearer " + SECRET))
                .withRequestBody(equalToJson("""
                        {"model": "dall-e-3", "prompt": "A lighthouse over a cloud ocean",
                         "n": 1, "size": "1792x1024"}
                        """)));
    }

    @Test
    void everyImageParameterGoesUnderOpenAisOwnNamesAndProviderOptionsNeverOverrideIdems() {
        answer(200, "{\"data\": [{\"b64_json\": \"" + PNG_BASE64 + "\"}]}");

        fixture.adapter()
                .generate(aCall().size("auto")
                        .image(io.idem.providers.http.CallBuilder.EVERY_IMAGE_PARAMETER)
                        .build());

        fixture.vendor.verify(
                postRequestedFor(urlEqualTo("/v1/images/generations")).withRequestBody(equalToJson("""
                        {"model": "gpt-image-1", "prompt": "A lighthouse over a cloud ocean", "n": 1, "size": "auto",
                         "quality": "high", "style": "vivid", "background": "transparent", "output_format": "webp",
                         "output_compression": 70, "moderation": "low", "seed": 3}
                        """)));
    }

    @Test
    void anEditGoesToOpenAisEditsAsMultipartWithItsImagesAndMask() {
        fixture.vendor.stubFor(com.github.tomakehurst.wiremock.client.WireMock.post(urlEqualTo("/v1/images/edits"))
                .willReturn(com.github.tomakehurst.wiremock.client.WireMock.okJson(
                        "{\"data\": [{\"b64_json\": \"" + PNG_BASE64 + "\"}]}")));
        byte[] png = java.util.Base64.getDecoder().decode(PNG_BASE64);
        var image = io.idem.core.domain.InputImage.of(false, png).orElseThrow();
        var mask = io.idem.core.domain.InputImage.of(true, png).orElseThrow();
        var quality = new io.idem.core.domain.ImageParams(
                java.util.Optional.of("low"),
                java.util.Optional.empty(),
                java.util.Optional.empty(),
                java.util.Optional.empty(),
                java.util.Optional.empty(),
                java.util.Optional.empty(),
                java.util.Optional.empty());

        Outcome outcome = fixture.adapter()
                .generate(aCall().image(quality.editing(java.util.List.of(image, mask)))
                        .build());

        assertThat(outcome).isInstanceOf(Outcome.Confirmed.class);
        fixture.vendor.verify(postRequestedFor(urlEqualTo("/v1/images/edits"))
                .withHeader(
                        "Content-Type",
                        com.github.tomakehurst.wiremock.client.WireMock.containing("multipart/form-data"))
                .withAnyRequestBodyPart(com.github.tomakehurst.wiremock.client.WireMock.aMultipart()
                        .withName("prompt")
                        .withBody(equalTo("A lighthouse over a cloud ocean")))
                .withAnyRequestBodyPart(com.github.tomakehurst.wiremock.client.WireMock.aMultipart()
                        .withName("quality")
                        .withBody(equalTo("low")))
                .withAnyRequestBodyPart(com.github.tomakehurst.wiremock.client.WireMock.aMultipart()
                        .withName("image")
                        .withHeader("Content-Type", equalTo("image/png")))
                .withAnyRequestBodyPart(com.github.tomakehurst.wiremock.client.WireMock.aMultipart()
                        .withName("mask")));
    }

    @Test
    void aCallWithoutAModelUsesTheProvidersDefaultModel() {
        answer(200, "{\"data\": [{\"b64_json\": \"" + PNG_BASE64 + "\"}]}");

        fixture.adapter().generate(aCall().vendorModel(null).build());

        fixture.vendor.verify(postRequestedFor(urlEqualTo("/v1/images/generations"))
                .withRequestBody(equalToJson("{\"model\": \"gpt-image-1\"}", true, true)));
    }

    @Test
    void twoImagesCostTwiceThePrice() {
        answer(200, "{\"data\": [{\"b64_json\": \"%s\"}, {\"b64_json\": \"%s\"}]}".formatted(PNG_BASE64, PNG_BASE64));

        Outcome outcome = fixture.adapter().generate(aCall().images(2).build());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Confirmed.class, c -> {
            assertThat(c.result().media()).hasSize(2);
            assertThat(c.costUsd()).isEqualByComparingTo(new BigDecimal("0.08"));
        });
    }

    @Test
    void aUrlResultIsFetchedIntoHand() {
        answer(
                200,
                "{\"created\": 1760000000, \"data\": [{\"url\": \"%s\", \"revised_prompt\": \"a lighthouse\"}]}"
                        .formatted(fixture.vendor.baseUrl() + "/blob/img-1.png?sig=secret-signature"));
        media("/blob/img-1.png?sig=secret-signature", "image/png", PNG);

        Outcome outcome =
                fixture.adapter().generate(aCall().vendorModel("dall-e-3").build());

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Confirmed.class,
                        c -> assertThat(c.result().media()).singleElement().satisfies(m -> {
                            assertThat(m.bytes()).isEqualTo(PNG);
                            assertThat(m.mimeType()).isEqualTo("image/png");
                        }));
    }

    @Test
    void aUrlOfTheWrongContentTypeIsUnconfirmedBecauseTheImageIsPaidButNotInHand() {
        answer(200, "{\"data\": [{\"url\": \"%s\"}]}".formatted(fixture.vendor.baseUrl() + "/blob/page.html"));
        media("/blob/page.html", "text/html", "<html>expired</html>".getBytes());

        Outcome outcome = fixture.adapter().generate(aCall().build());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("result_download_failed");
            assertThat(u.message()).contains("text/html");
            assertThat(u.requestId()).isEqualTo("req_123");
        });
        assertThat(outcome.billable()).isEqualTo(Billable.UNKNOWN);
    }

    @Test
    void aUrlOverTheSizeLimitIsUnconfirmedAndItsSignedQueryIsNotRecorded() {
        answer(
                200,
                "{\"data\": [{\"url\": \"%s\"}]}"
                        .formatted(fixture.vendor.baseUrl() + "/blob/huge.png?sig=secret-signature"));
        media(
                "/blob/huge.png?sig=secret-signature",
                "image/png",
                new byte[(int) OpenAiFixture.TUNING.maxDownloadBytes() + 1]);

        Outcome outcome = fixture.adapter().generate(aCall().build());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("result_download_failed");
            assertThat(u.message()).contains("4096").doesNotContain("secret-signature");
            assertThat(u.requestId()).isEqualTo("req_123");
        });
    }

    @Test
    void aMissingUrlIsUnconfirmed() {
        answer(200, "{\"data\": [{\"url\": \"%s\"}]}".formatted(fixture.vendor.baseUrl() + "/blob/gone.png"));
        fixture.vendor.stubFor(
                get(urlEqualTo("/blob/gone.png")).willReturn(aResponse().withStatus(404)));

        Outcome outcome = fixture.adapter().generate(aCall().build());

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("result_download_failed"));
    }

    @Test
    void aSuccessWithoutAnyImageIsUnconfirmedNotUnavailable() {
        answer(200, "{\"created\": 1760000000, \"data\": []}");

        Outcome outcome = fixture.adapter().generate(aCall().build());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("malformed_response");
            assertThat(u.requestId()).isEqualTo("req_123");
        });
    }

    @Test
    void anUnreadableSuccessIsUnconfirmed() {
        answer(200, "<html>not json</html>");

        Outcome outcome = fixture.adapter().generate(aCall().build());

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("malformed_response"));
    }

    private static void answer(int status, String body) {
        fixture.vendor.stubFor(post(urlEqualTo("/v1/images/generations"))
                .willReturn(aResponse()
                        .withStatus(status)
                        .withHeader("Content-Type", "application/json")
                        .withHeader("x-request-id", "req_123")
                        .withBody(body)));
    }

    private static void media(String path, String type, byte[] bytes) {
        fixture.vendor.stubFor(get(urlEqualTo(path))
                .willReturn(aResponse()
                        .withStatus(200)
                        .withHeader("Content-Type", type)
                        .withBody(bytes)));
    }
}
