package io.idem.providers.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.JobKind;
import io.idem.core.outcome.Outcome;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.core.spi.UsageAnswer;
import io.idem.core.text.Redactor;
import io.idem.providers.http.Credential;
import io.idem.providers.http.ImageOptions;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.http.RetryAfter;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.time.LocalDate;
import java.util.function.UnaryOperator;

/**
 * Speaks to a {@link FakeVendorServer} (or anything with its wire protocol) and maps every answer,
 * or its absence, onto an {@link Outcome} (DESIGN §3).
 *
 * <p>The generation POST asks for {@code 100 Continue} and tracks its body with a {@link
 * SendTracker}: a connection that dies before the vendor asked for the body is {@code Unavailable},
 * one that dies after is {@code Unconfirmed}. The POST is never retried.
 *
 * <p>The {@link HttpClient} is the caller's: build it for HTTP/1.1 with {@code
 * settings.connectTimeout()} (the JDK sets connect timeouts per client, not per request). Each
 * request's timeout is the call's. Thread-safe.
 */
public final class FakeAdapter implements ProviderAdapter {
    private final VendorCalls calls;
    private final FakeEndpoints endpoints;
    private final FakeFollowUp followUp;
    private final FakeVideoCalls videos;

    public FakeAdapter(ProviderSettings settings, HttpClient client) {
        this(settings, client, System::getenv, Redactor.shapesOnly());
    }

    public FakeAdapter(
            ProviderSettings settings, HttpClient client, UnaryOperator<String> environment, Redactor redactor) {
        this(settings, client, environment, redactor, InstantSource.system(), PollSchedule.STANDARD);
    }

    /**
     * @param environment where the key is read, if the provider names one ({@code System::getenv} in
     *     production)
     * @param redactor hides the node's secrets in whatever the vendor says
     */
    /**
     * @param clock measures a video call against its timeout
     * @param schedule how often a rendering video is polled
     */
    public FakeAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock,
            PollSchedule schedule) {
        this.calls = new VendorCalls(FakeVendor.NAME, settings, client, environment, redactor);
        this.endpoints = FakeEndpoints.of(settings.baseUrl());
        this.videos = new FakeVideoCalls(calls, endpoints, clock, schedule);
        this.followUp = new FakeFollowUp(calls, endpoints, settings.pricing(), videos);
    }

    @Override
    public Outcome generate(GenerationCall call) {
        Credential credential = calls.credential();
        if (credential instanceof Credential.Missing missing) {
            return VendorCalls.missingCredential(missing);
        }
        if (call.kind() == JobKind.VIDEO) {
            return videos.generate(call, credential);
        }
        SendTracker tracker = SendTracker.track(requestBody(call));
        return calls.generating(call, tracker, () -> {
            HttpRequest.Builder request = VendorCalls.billablePost(
                    call.image().edit() ? endpoints.edits() : endpoints.generations(), call.timeout(), tracker);
            call.simulate().ifPresent(mode -> request.header(GenerationIntake.SIMULATE_HEADER, mode));
            return switch (calls.send(request, credential, tracker)) {
                case VendorExchange.Failed failed -> failed.outcome();
                case VendorExchange.Answered answered ->
                    RetryAfter.onto(
                            FakeAnswerReader.read(
                                    answered.response(), calls.settings().pricing(), calls.text(credential)),
                            answered.response());
            };
        });
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        return calls.reconciling(attempt, () -> followUp.reconcile(attempt));
    }

    @Override
    public CancelAnswer cancel(AttemptRef attempt) {
        return calls.canceling(attempt, () -> followUp.cancel(attempt));
    }

    @Override
    public HealthAnswer health() {
        // The fake vendor's health route is open: no key is sent, and none is needed.
        return VendorCalls.probe(
                "health",
                FakeAdapter::healthy,
                () -> VendorExchange.sendWithoutBody(
                        calls.client(),
                        HttpRequest.newBuilder(endpoints.health())
                                .version(HttpClient.Version.HTTP_1_1)
                                .timeout(VendorCalls.HEALTH_TIMEOUT)
                                .GET()
                                .build()));
    }

    /** The vendor's invoice for the day, one charge per generation or completion, by its id. */
    @Override
    public UsageAnswer usage(LocalDate day) {
        try {
            return switch (VendorExchange.sendWithoutBody(
                    calls.client(),
                    HttpRequest.newBuilder(endpoints.usage(day))
                            .version(HttpClient.Version.HTTP_1_1)
                            .timeout(VendorCalls.HEALTH_TIMEOUT)
                            .GET()
                            .build())) {
                case VendorExchange.Failed failed -> new UsageAnswer.Failed(failed.detail());
                case VendorExchange.Answered answered -> FakeUsageReader.read(answered.response());
            };
        } catch (RuntimeException e) {
            return new UsageAnswer.Failed(
                    "usage report failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    private static boolean healthy(HttpResponse<byte[]> response) {
        return response.statusCode() == 200
                && VendorJson.parse(response.body())
                        .flatMap(root -> VendorJson.text(root, "status"))
                        .filter("ok"::equals)
                        .isPresent();
    }

    private byte[] requestBody(GenerationCall call) {
        ObjectNode body = VendorJson.MAPPER
                .createObjectNode()
                .put("model", calls.modelOf(call))
                .put("prompt", call.prompt())
                .put("size", call.size() != null ? call.size() : "1024x1024")
                .put("n", call.n())
                .put("reference", call.reference());
        // the fake vendor takes every image parameter under OpenAI's names, and echoes them
        ImageOptions.underOpenAiNames(body, call.image());
        var images = body.putArray("images");
        call.image()
                .images()
                .forEach(i -> images.addObject().put("mime_type", i.mimeType()).put("b64_json", i.base64()));
        call.image()
                .mask()
                .ifPresent(m ->
                        body.putObject("mask").put("mime_type", m.mimeType()).put("b64_json", m.base64()));
        if (images.isEmpty()) {
            body.remove("images");
        }
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }
}
