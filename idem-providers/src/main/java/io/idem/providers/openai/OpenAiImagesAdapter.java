package io.idem.providers.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.pricing.Usage;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.core.text.Redactor;
import io.idem.providers.http.Credential;
import io.idem.providers.http.ImageOptions;
import io.idem.providers.http.MediaDownloader;
import io.idem.providers.http.MultipartBody;
import io.idem.providers.http.RetryAfter;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Adapter type {@code openai_images}: {@code POST {base_url}/images/generations} on OpenAI, or on any
 * OpenAI-compatible images API (Together and others) through {@code base_url}.
 *
 * <p>The API is synchronous and keeps no per-request record we could ask about later, so {@link
 * #reconcile} answers {@code Unsupported}: an unconfirmed call waits for an operator. The POST asks
 * for {@code 100 Continue} and is tracked by a {@link SendTracker}, so a connection lost before the
 * body left is {@code Unavailable} and one lost after is {@code Unconfirmed}. It is never retried.
 * {@code x-request-id} is the provider request id. Images come inline ({@code b64_json}) or as
 * expiring URLs, which are fetched at once; a failed fetch after a 200 is {@code Unconfirmed}
 * ({@code result_download_failed}), because the image is paid for but not in hand.
 *
 * <p>The {@link HttpClient} is the caller's, built for HTTP/1.1 with the provider's connect timeout
 * and without redirects. Thread-safe.
 */
public final class OpenAiImagesAdapter implements ProviderAdapter {
    /** OpenAI's own base URL, for a provider configured without one. */
    public static final URI DEFAULT_BASE_URL = URI.create("https://api.openai.com/v1");

    private final VendorCalls calls;
    private final OpenAiTuning tuning;
    private final InstantSource clock;
    private final OpenAiEndpoints endpoints;
    private final OpenAiCosts costs;
    private final OpenAiErrorReader errors;
    private final MediaDownloader downloader;

    /**
     * @param environment where the key is read ({@code System::getenv} in production)
     * @param redactor hides the node's secrets in whatever the vendor says
     */
    public OpenAiImagesAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock) {
        this(settings, client, environment, redactor, OpenAiTuning.DEFAULTS, clock);
    }

    /** With test-sized limits and clock. */
    OpenAiImagesAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            OpenAiTuning tuning,
            InstantSource clock) {
        this.calls = new VendorCalls(OpenAiImagesVendor.NAME, settings, client, environment, redactor);
        this.tuning = Objects.requireNonNull(tuning, "tuning");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.endpoints = OpenAiEndpoints.of(settings.baseUrl());
        this.costs = new OpenAiCosts(calls, endpoints.base());
        this.errors = new OpenAiErrorReader(tuning.promptRefusal());
        this.downloader = new MediaDownloader(client, tuning.maxDownloadBytes());
    }

    @Override
    public Outcome generate(GenerationCall call) {
        Credential credential = calls.credential();
        if (credential instanceof Credential.Missing missing) {
            return VendorCalls.missingCredential(missing);
        }
        Optional<Outcome> unsupported = VendorCalls.unsupportedKind(call, "OpenAI Images");
        if (unsupported.isPresent()) {
            return unsupported.get();
        }
        boolean edit = call.image().edit();
        MultipartBody form = edit ? editBody(call) : null;
        SendTracker tracker = SendTracker.track(edit ? form.bytes() : requestBody(call));
        return calls.generating(call, tracker, () -> {
            HttpRequest.Builder request = VendorCalls.billablePost(
                    edit ? endpoints.edits() : endpoints.generations(), call.timeout(), tracker);
            if (edit) {
                request.setHeader("Content-Type", form.contentType());
            }
            Instant sent = clock.instant();
            return switch (calls.send(request, credential, tracker)) {
                case VendorExchange.Failed failed -> failed.outcome();
                case VendorExchange.Answered answered ->
                    read(answered.response(), call, credential, Duration.between(sent, clock.instant()));
            };
        });
    }

    private Outcome read(HttpResponse<byte[]> response, GenerationCall call, Credential credential, Duration took) {
        String requestId = response.headers().firstValue("x-request-id").orElse(null);
        if (response.statusCode() != 200) {
            return RetryAfter.onto(
                    errors.classify(response.statusCode(), response.body(), requestId, took, calls.text(credential)),
                    response);
        }
        if (requestId != null) {
            // Before any download: a crash while fetching still leaves the id on the attempt.
            call.listener().submitted(requestId);
        }
        return switch (OpenAiImagesReply.read(response.body())) {
            // A 200 means the vendor generated, and billed; an unreadable one is paid but not in hand.
            case OpenAiImagesReply.Unreadable unreadable ->
                new Outcome.Unconfirmed("malformed_response", unreadable.why(), 200, requestId);
            case OpenAiImagesReply.Delivered delivered -> deliver(delivered, requestId);
        };
    }

    private Outcome deliver(OpenAiImagesReply.Delivered delivered, String requestId) {
        List<GenerationResult.Media> media = new ArrayList<>();
        for (OpenAiImagesReply.Item item : delivered.items()) {
            switch (item) {
                case OpenAiImagesReply.Item.Inline inline ->
                    media.add(new GenerationResult.Media(inline.bytes(), inline.mimeType()));
                case OpenAiImagesReply.Item.Remote remote -> {
                    try {
                        media.add(downloader.fetch(remote.url(), tuning.downloadTimeout()));
                    } catch (MediaDownloader.DownloadException e) {
                        return new Outcome.Unconfirmed(
                                "result_download_failed",
                                "the vendor delivered image " + (media.size() + 1)
                                        + " as a URL, but fetching it failed: " + e.getMessage(),
                                200,
                                requestId);
                    }
                }
            }
        }
        BigDecimal cost = calls.settings().pricing().cost(Usage.images(media.size()));
        return new Outcome.Confirmed(new GenerationResult(media), 200, requestId, cost);
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        return new ReconcileAnswer.Unsupported("OpenAI Images keeps no per-request record to look up; an operator"
                + " decides (the organization usage API shows billed images per minute)");
    }

    @Override
    public HealthAnswer health() {
        return calls.probeWithKey(
                "models",
                response -> response.statusCode() == 200,
                credential -> calls.ask(
                        VendorCalls.lookup(endpoints.models(), VendorCalls.HEALTH_TIMEOUT)
                                .GET(),
                        credential));
    }

    /** The organization's costs report for the day (an admin key in {@code usage_key_env}); a total, not per call. */
    @Override
    public io.idem.core.spi.UsageAnswer usage(java.time.LocalDate day) {
        try {
            return costs.day(day);
        } catch (RuntimeException e) {
            return new io.idem.core.spi.UsageAnswer.Failed(
                    "costs report failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    /**
     * An edit as OpenAI's {@code /v1/images/edits} takes it: the fields a generation sends (as text
     * parts), then each image ({@code image}, or {@code image[]} for several) and the mask.
     */
    private MultipartBody editBody(GenerationCall call) {
        MultipartBody form = new MultipartBody();
        VendorJson.parse(requestBody(call))
                .orElseThrow()
                .fields()
                .forEachRemaining(f -> form.field(
                        f.getKey(),
                        f.getValue().isTextual()
                                ? f.getValue().textValue()
                                : f.getValue().toString()));
        var images = call.image().images();
        String name = images.size() == 1 ? "image" : "image[]";
        images.forEach(i -> form.file(name, i.fileName(), i.mimeType(), i.bytes()));
        call.image().mask().ifPresent(m -> form.file("mask", m.fileName(), m.mimeType(), m.bytes()));
        return form;
    }

    private byte[] requestBody(GenerationCall call) {
        ObjectNode body = VendorJson.MAPPER
                .createObjectNode()
                .put("model", calls.modelOf(call))
                .put("prompt", call.prompt())
                .put("n", call.n());
        if (call.size() != null) {
            body.put("size", call.size());
        }
        // OpenAI's own names: every image parameter goes as the client named it
        ImageOptions.underOpenAiNames(body, call.image());
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }
}
