package io.idem.providers.fake;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.Credential;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(FakeAdapter.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ProviderSettings settings;
    private final HttpClient client;
    private final UnaryOperator<String> environment;
    private final FakeEndpoints endpoints;
    private final FakeFollowUp followUp;

    public FakeAdapter(ProviderSettings settings, HttpClient client) {
        this(settings, client, System::getenv);
    }

    /** With {@code environment} standing in for {@code System.getenv}, for tests. */
    FakeAdapter(ProviderSettings settings, HttpClient client, UnaryOperator<String> environment) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.client = Objects.requireNonNull(client, "client");
        this.environment = Objects.requireNonNull(environment, "environment");
        this.endpoints = FakeEndpoints.of(settings.baseUrl());
        this.followUp = new FakeFollowUp(client, endpoints, this::credential, settings.costPerImageUsd());
    }

    @Override
    public Outcome generate(GenerationCall call) {
        Credential credential = credential();
        if (credential instanceof Credential.Missing missing) {
            return new Outcome.Rejected(RejectionKind.CONFIG, "missing_credential", missing.reason(), 0, null);
        }
        if (call.kind() != null && !call.kind().equals("image")) {
            return new Outcome.Rejected(
                    RejectionKind.CONFIG,
                    "unsupported_kind",
                    "the fake vendor makes images, not " + call.kind(),
                    0,
                    null);
        }
        SendTracker tracker = SendTracker.track(requestBody(call));
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(endpoints.generations())
                    .version(HttpClient.Version.HTTP_1_1)
                    .timeout(call.timeout())
                    // Without it the client writes the body at once, and a dropped connection could
                    // never again be told apart from a request the vendor received.
                    .expectContinue(true)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json")
                    .POST(tracker);
            call.simulate().ifPresent(mode -> request.header(GenerationIntake.SIMULATE_HEADER, mode));
            return switch (VendorExchange.send(
                    client, credential.applyTo(request).build(), tracker)) {
                case VendorExchange.Failed failed -> failed.outcome();
                case VendorExchange.Answered answered ->
                    FakeAnswerReader.read(answered.response(), call.listener(), settings.costPerImageUsd());
            };
        } catch (RuntimeException e) {
            // Only our own code throws here (the credential check keeps the key out of any message).
            log.warn("fake adapter '{}' failed on attempt {}", settings.name(), call.reference(), e);
            return new Outcome.AdapterFault(
                    "fake adapter failed on " + call.reference() + ": "
                            + e.getClass().getSimpleName(),
                    tracker.bodyPulled());
        }
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        try {
            return followUp.reconcile(attempt);
        } catch (RuntimeException e) {
            return new ReconcileAnswer.StillUnknown(
                    "lookup failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    @Override
    public CancelAnswer cancel(AttemptRef attempt) {
        try {
            return followUp.cancel(attempt);
        } catch (RuntimeException e) {
            return new CancelAnswer.Unclear(
                    "cancel failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    @Override
    public HealthAnswer health() {
        try {
            HttpRequest request = HttpRequest.newBuilder(endpoints.health())
                    .version(HttpClient.Version.HTTP_1_1)
                    .timeout(HEALTH_TIMEOUT)
                    .GET()
                    .build();
            return switch (VendorExchange.sendWithoutBody(client, request)) {
                case VendorExchange.Failed failed -> new HealthAnswer(false, failed.detail());
                case VendorExchange.Answered answered -> {
                    boolean ok = answered.response().statusCode() == 200
                            && VendorJson.parse(answered.response().body())
                                    .flatMap(root -> VendorJson.text(root, "status"))
                                    .filter("ok"::equals)
                                    .isPresent();
                    yield new HealthAnswer(
                            ok,
                            ok
                                    ? "ok"
                                    : "health answered HTTP "
                                            + answered.response().statusCode());
                }
            };
        } catch (RuntimeException e) {
            return new HealthAnswer(
                    false, "health probe failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    private Credential credential() {
        return Credential.resolve(settings, environment);
    }

    private byte[] requestBody(GenerationCall call) {
        ObjectNode body = JSON.createObjectNode()
                .put("model", call.vendorModel() != null ? call.vendorModel() : settings.defaultModel())
                .put("prompt", call.prompt())
                .put("size", call.size() != null ? call.size() : "1024x1024")
                .put("n", call.n())
                .put("reference", call.reference());
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }
}
