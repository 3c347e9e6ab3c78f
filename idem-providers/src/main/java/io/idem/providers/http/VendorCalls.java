package io.idem.providers.http;

import io.idem.core.domain.JobKind;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.core.text.Redactor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every vendor adapter does the same way around its own calls: resolve the key, pick the model,
 * build request heads, send them with the key, and turn a bug in our own code into a value (an
 * {@code AdapterFault}, a {@code StillUnknown}, an {@code Unclear} or an unhealthy answer) instead
 * of an exception that would leave the attempt unexplained. A collaborator each adapter holds, not
 * a base class: what a vendor does differently stays in its adapter.
 *
 * <p>The key is resolved on every use from the environment the adapter was given (the server's is
 * the one its configuration was read from at start). No message here quotes it, and every word the
 * vendor says goes through {@link #text()}, which hides the node's secrets and the key. Thread-safe.
 */
public final class VendorCalls {
    /** How long a call that cannot bill (a lookup, a cancel) may take. */
    public static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(10);

    /** How long a health probe may take. */
    public static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(5);

    private static final Logger log = LoggerFactory.getLogger(VendorCalls.class);

    private final String adapterType;
    private final String scheme;
    private final ProviderSettings settings;
    private final HttpClient client;
    private final UnaryOperator<String> environment;
    private final Redactor redactor;

    /** For a vendor that takes its key as {@code Authorization: Bearer …}. */
    public VendorCalls(
            String adapterType,
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor) {
        this(adapterType, "Bearer", settings, client, environment, redactor);
    }

    /**
     * @param adapterType the adapter type, as messages and logs name it ({@code fal})
     * @param scheme the authorization scheme the vendor takes its key under ({@code Key} for fal)
     * @param environment stands in for {@code System.getenv}
     * @param redactor hides the node's secrets in whatever the vendor says
     */
    public VendorCalls(
            String adapterType,
            String scheme,
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor) {
        this.adapterType = Objects.requireNonNull(adapterType, "adapterType");
        this.scheme = Objects.requireNonNull(scheme, "scheme");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.client = Objects.requireNonNull(client, "client");
        this.environment = Objects.requireNonNull(environment, "environment");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    public ProviderSettings settings() {
        return settings;
    }

    public HttpClient client() {
        return client;
    }

    /** The provider's key as the environment holds it now. */
    public Credential credential() {
        return Credential.resolve(settings, environment);
    }

    /** The key that reads the vendor's usage report ({@code usage_key_env}); {@code None} when none is named. */
    public Credential usageCredential() {
        return Credential.fromVariable(settings.usageKeyEnv(), environment);
    }

    /** What makes the vendor's words safe to keep: the node's secrets and the current key hidden. */
    public VendorText text() {
        return text(credential());
    }

    /** What makes the vendor's words safe to keep: the node's secrets and {@code credential} hidden. */
    public VendorText text(Credential credential) {
        return VendorText.of(redactor, credential);
    }

    /** The vendor model the call names, else the provider's default. */
    public String modelOf(GenerationCall call) {
        return call.vendorModel() != null ? call.vendorModel() : settings.defaultModel();
    }

    /** The vendor model the attempt used, else the provider's default. */
    public String modelOf(AttemptRef attempt) {
        return attempt.vendorModel() != null ? attempt.vendorModel() : settings.defaultModel();
    }

    /** {@code baseUrl} as text without trailing slashes, ready for a path to be appended. */
    public static String trimmedBase(URI baseUrl) {
        String text = baseUrl.toString();
        while (text.endsWith("/")) {
            text = text.substring(0, text.length() - 1);
        }
        return text;
    }

    /** A call refused before anything is sent, because the key cannot be used. */
    public static Outcome missingCredential(Credential.Missing missing) {
        return new Outcome.Rejected(RejectionKind.CONFIG, "missing_credential", missing.reason(), 0, null);
    }

    /** A refusal if the call asks for something other than images; {@code maker} names who says so. */
    public static Optional<Outcome> unsupportedKind(GenerationCall call, String maker) {
        if (call.kind() == JobKind.IMAGE) {
            return Optional.empty();
        }
        return Optional.of(new Outcome.Rejected(
                RejectionKind.CONFIG, "unsupported_kind", maker + " makes images, not " + call.kind(), 0, null));
    }

    /**
     * The head of the one billable POST, with {@code body} as its body: HTTP/1.1, {@code timeout},
     * JSON both ways, and {@code 100 Continue} (waited for only so long: {@link
     * ExpectContinueClient}). The caller adds any vendor headers; {@link #send} adds the key.
     */
    public static HttpRequest.Builder billablePost(URI uri, Duration timeout, SendTracker body) {
        return HttpRequest.newBuilder(uri)
                .version(HttpClient.Version.HTTP_1_1)
                .timeout(timeout)
                // Without it the client writes the body at once, and a dropped connection could
                // never again be told apart from a request the vendor received.
                .expectContinue(true)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(body);
    }

    /** The head of a call that cannot bill: HTTP/1.1, {@code timeout}, a JSON answer wanted; no method yet. */
    public static HttpRequest.Builder lookup(URI uri, Duration timeout) {
        return HttpRequest.newBuilder(uri)
                .version(HttpClient.Version.HTTP_1_1)
                .timeout(timeout)
                .header("Accept", "application/json");
    }

    /** Sends {@code request}, whose body is {@code body}, with {@code credential} added. */
    public VendorExchange send(HttpRequest.Builder request, Credential credential, SendTracker body) {
        return VendorExchange.send(client, credential.applyTo(request, scheme).build(), body);
    }

    /** Sends a request without a body with the current key added. */
    public VendorExchange ask(HttpRequest.Builder request) {
        return ask(request, credential());
    }

    /** Sends a request without a body with {@code credential} added. */
    public VendorExchange ask(HttpRequest.Builder request, Credential credential) {
        return VendorExchange.sendWithoutBody(
                client, credential.applyTo(request, scheme).build());
    }

    /** GETs {@code uri} with the current key. */
    public VendorExchange get(URI uri, Duration timeout) {
        return ask(lookup(uri, timeout).GET());
    }

    /**
     * Runs a generation's exchange. A runtime exception can only come from our own code: it becomes
     * an {@code AdapterFault} that names the exception type (never a header) and says whether the
     * body had left.
     */
    public Outcome generating(GenerationCall call, SendTracker body, Supplier<Outcome> exchange) {
        try {
            return exchange.get();
        } catch (RuntimeException e) {
            log.warn("{} adapter '{}' failed on attempt {}", adapterType, settings.name(), call.reference(), e);
            return new Outcome.AdapterFault(
                    adapterType + " adapter failed on " + call.reference() + ": "
                            + e.getClass().getSimpleName(),
                    body.bodyPulled());
        }
    }

    /** Runs a reconcile lookup; a runtime exception from our own code leaves the attempt unknown. */
    public ReconcileAnswer reconciling(AttemptRef attempt, Supplier<ReconcileAnswer> lookup) {
        try {
            return lookup.get();
        } catch (RuntimeException e) {
            log.warn(
                    "{} adapter '{}' failed to reconcile attempt {}",
                    adapterType,
                    settings.name(),
                    attempt.reference(),
                    e);
            return new ReconcileAnswer.StillUnknown(
                    "lookup failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    /** Runs a cancel; a runtime exception from our own code leaves it unclear. */
    public CancelAnswer canceling(AttemptRef attempt, Supplier<CancelAnswer> cancel) {
        try {
            return cancel.get();
        } catch (RuntimeException e) {
            log.warn(
                    "{} adapter '{}' failed to cancel attempt {}",
                    adapterType,
                    settings.name(),
                    attempt.reference(),
                    e);
            return new CancelAnswer.Unclear(
                    "cancel failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    /**
     * A health probe that needs the key: unhealthy without one, else {@link #probe} with the
     * exchange given the key.
     */
    public HealthAnswer probeWithKey(
            String what, Predicate<HttpResponse<byte[]>> healthy, Function<Credential, VendorExchange> exchange) {
        Credential credential = credential();
        if (credential instanceof Credential.Missing missing) {
            return new HealthAnswer(false, missing.reason());
        }
        return probe(what, healthy, () -> exchange.apply(credential));
    }

    /**
     * A health probe: healthy if the vendor answered and {@code healthy} accepts the answer, else
     * unhealthy with the failure, or "{@code what} answered HTTP n".
     */
    public static HealthAnswer probe(
            String what, Predicate<HttpResponse<byte[]>> healthy, Supplier<VendorExchange> exchange) {
        try {
            return switch (exchange.get()) {
                case VendorExchange.Failed failed -> new HealthAnswer(false, failed.detail());
                case VendorExchange.Answered answered -> {
                    boolean ok = healthy.test(answered.response());
                    yield new HealthAnswer(
                            ok,
                            ok
                                    ? "ok"
                                    : what + " answered HTTP "
                                            + answered.response().statusCode());
                }
            };
        } catch (RuntimeException e) {
            return new HealthAnswer(
                    false, "health probe failed in the adapter: " + e.getClass().getSimpleName());
        }
    }
}
