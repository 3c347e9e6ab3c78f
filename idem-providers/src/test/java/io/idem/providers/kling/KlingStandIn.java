package io.idem.providers.kling;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.matching.MatchResult;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.VideoParams;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptListener;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.http.VendorStandIn;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A stand-in for Kling's API as its docs describe it (api-reference: text-to-video, image-to-video,
 * query task, error codes): every route answers only a request whose {@code Authorization: Bearer}
 * is a JWT signed HS256 with the secret key, issued by the access key, valid now ({@code nbf} ≤ now
 * < {@code exp}); anything else gets Kling's 401 with code 1000.
 */
final class KlingStandIn extends VendorStandIn {
    static final String ACCESS_ENV = "IDEM_TEST_KLING_AK";
    static final String SECRET_ENV = "IDEM_TEST_KLING_SK";
    static final String ACCESS_KEY = "ak-kling-test-3f1e";
    static final String SECRET_KEY = "sk-kling-test-do-not-print-7b20";
    static final BigDecimal PER_SECOND = new BigDecimal("0.07");
    static final byte[] CLIP = "\0\0\0\u0018ftypmp42kling-clip".getBytes(StandardCharsets.ISO_8859_1);

    private static final ObjectMapper JSON = new ObjectMapper();

    KlingAdapter adapter() {
        return adapter(keys());
    }

    KlingAdapter adapter(UnaryOperator<String> environment) {
        return new KlingAdapter(
                settings(),
                client,
                environment,
                REDACTOR,
                java.time.InstantSource.system(),
                new PollSchedule(Duration.ofMillis(20), Duration.ofMillis(60)));
    }

    static UnaryOperator<String> keys() {
        return name -> switch (name) {
            case ACCESS_ENV -> ACCESS_KEY;
            case SECRET_ENV -> SECRET_KEY;
            default -> null;
        };
    }

    ProviderSettings settings() {
        return new ProviderSettings(
                "kling",
                KlingVendor.NAME,
                new ProviderSettings.Endpoint(
                        URI.create(vendor.baseUrl()),
                        Optional.of(ACCESS_ENV),
                        Duration.ofSeconds(2),
                        Optional.empty(),
                        ProviderSettings.ExpectContinue.DEFAULT,
                        Optional.of(SECRET_ENV)),
                KlingVendor.DEFAULT_MODEL,
                Map.of(),
                new PricingModel.PerOutputSecond(PER_SECOND),
                true,
                Capabilities.ANY,
                Optional.empty());
    }

    static GenerationCall call(String reference, VideoParams video, AttemptListener listener, Duration timeout) {
        return new GenerationCall(
                "kling",
                null,
                new GenerationCall.Request(
                        "A lighthouse in a storm", JobKind.VIDEO, video.size(), 1, Optional.of(video)),
                timeout,
                reference,
                Optional.empty(),
                listener);
    }

    static String reference() {
        return UUID.randomUUID().toString();
    }

    /** Answers Kling's way when the token is wrong; stubs below win only with a good token. */
    void rejectBadTokens() {
        vendor.stubFor(com.github.tomakehurst.wiremock.client.WireMock.any(
                        com.github.tomakehurst.wiremock.client.WireMock.anyUrl())
                .atPriority(10)
                .willReturn(json(401, "{\"code\":1000,\"message\":\"Authentication failed\",\"request_id\":\"r0\"}")));
    }

    void onSubmit(String action, ResponseDefinitionBuilder answer) {
        rejectBadTokens();
        vendor.stubFor(signed(post(urlEqualTo("/v1/videos/" + action))).willReturn(answer));
    }

    void onQuery(String path, ResponseDefinitionBuilder answer) {
        rejectBadTokens();
        vendor.stubFor(signed(get(urlEqualTo("/v1/videos/" + path))).willReturn(answer));
    }

    void serveClip() {
        vendor.stubFor(get(urlEqualTo("/cdn/clip.mp4"))
                .willReturn(aResponse().withHeader("Content-Type", "video/mp4").withBody(CLIP)));
    }

    String clipUrl() {
        return vendor.baseUrl() + "/cdn/clip.mp4";
    }

    static String submitted(String taskId, String reference) {
        return """
                {"code":0,"message":"SUCCEED","request_id":"req-1","data":{"task_id":"%s","task_status":"submitted",
                 "task_info":{"external_task_id":"%s"},"created_at":1774805076166,"updated_at":1774805076166}}
                """.formatted(taskId, reference);
    }

    static String task(String taskId, String status) {
        return """
                {"code":0,"message":"SUCCEED","request_id":"req-2","data":{"task_id":"%s","task_status":"%s",
                 "task_status_msg":"","created_at":1774805076166,"updated_at":1774805076166}}
                """.formatted(taskId, status);
    }

    String succeeded(String taskId, String seconds) {
        return """
                {"code":0,"message":"SUCCEED","request_id":"req-3","data":{"task_id":"%s","task_status":"succeed",
                 "task_status_msg":"","final_unit_deduction":"2","task_result":{"videos":[{"id":"v1","url":"%s",
                 "duration":"%s"}]}}}
                """.formatted(taskId, clipUrl(), seconds);
    }

    private static MappingBuilder signed(MappingBuilder route) {
        return route.atPriority(1)
                .andMatching(request -> MatchResult.of(validToken(request.getHeader("Authorization"))));
    }

    /** What the stand-in checks: the shape and signature of Kling's token, and its validity now. */
    static boolean validToken(String authorization) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return false;
        }
        String[] parts = authorization.substring("Bearer ".length()).split("\\.");
        if (parts.length != 3) {
            return false;
        }
        try {
            JsonNode header = JSON.readTree(Base64.getUrlDecoder().decode(parts[0]));
            JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(SECRET_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            String expected = Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(mac.doFinal((parts[0] + "." + parts[1]).getBytes(StandardCharsets.UTF_8)));
            long now = Instant.now().getEpochSecond();
            return "HS256".equals(header.path("alg").asText())
                    && "JWT".equals(header.path("typ").asText())
                    && ACCESS_KEY.equals(claims.path("iss").asText())
                    && claims.path("nbf").asLong(Long.MAX_VALUE) <= now
                    && claims.path("exp").asLong(0) > now
                    && expected.equals(parts[2]);
        } catch (Exception e) {
            return false;
        }
    }
}
