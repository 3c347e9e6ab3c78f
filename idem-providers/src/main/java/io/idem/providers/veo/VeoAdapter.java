package io.idem.providers.veo;

import io.idem.core.domain.JobKind;
import io.idem.core.domain.VideoParams;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.pricing.Usage;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.core.text.Redactor;
import io.idem.providers.http.Credential;
import io.idem.providers.http.JobPoller;
import io.idem.providers.http.MediaDownloader;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Adapter type {@code veo}: one Gemini API long-running operation per call ({@code POST
 * /v1beta/models/<model>:predictLongRunning}), polled by its name ({@code GET /v1beta/<name>}) with
 * backoff until {@code done} or the call's timeout; the clip is downloaded with the key and
 * streamed to disk.
 *
 * <p>The submit asks for {@code 100 Continue} and is never retried. The operation's name goes to
 * the listener the moment the submit is answered. Google takes no client id and lists no
 * operations, so <b>a lost submit answer cannot be found</b>: such an attempt is {@code
 * Unconfirmed} and parks for an operator ({@link #reconcile} says {@code Unsupported}). The Gemini
 * API offers no cancel for Veo operations. Thread-safe.
 */
public final class VeoAdapter implements ProviderAdapter {
    /** The Gemini API's host, for a provider configured without a base URL. */
    public static final URI DEFAULT_BASE_URL = URI.create("https://generativelanguage.googleapis.com");

    static final String KEY_HEADER = "x-goog-api-key";
    static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(5);
    static final Duration IMAGE_TIMEOUT = Duration.ofSeconds(30);

    private final VendorCalls calls;
    private final InstantSource clock;
    private final JobPoller poller;
    private final MediaDownloader downloader;
    private final String base;

    public VeoAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock) {
        this(
                settings,
                client,
                environment,
                redactor,
                clock,
                new PollSchedule(Duration.ofSeconds(5), Duration.ofSeconds(15)));
    }

    /** With a test-sized poll schedule. */
    VeoAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock,
            PollSchedule schedule) {
        this.calls = new VendorCalls(VeoVendor.NAME, settings, client, environment, redactor);
        this.clock = clock;
        this.poller = new JobPoller(clock, schedule);
        this.downloader = new MediaDownloader(client, MediaDownloader.DEFAULT_MAX_BYTES);
        this.base = VendorCalls.trimmedBase(settings.baseUrl());
    }

    @Override
    public Outcome generate(GenerationCall call) {
        if (!(calls.credential() instanceof Credential.Bearer key)) {
            return calls.credential() instanceof Credential.Missing missing
                    ? VendorCalls.missingCredential(missing)
                    : VendorCalls.missingCredential(new Credential.Missing("api_key_env", "Veo needs api_key_env"));
        }
        if (call.kind() != JobKind.VIDEO) {
            return new Outcome.Rejected(
                    RejectionKind.CONFIG, "unsupported_kind", "Veo makes videos, not " + call.kind(), 0, null);
        }
        VideoParams video = call.video().orElse(VideoParams.DEFAULTS);
        Optional<GenerationResult.Media> first;
        Optional<GenerationResult.Media> last;
        try {
            first = image(video.startImage());
            last = image(video.endImage());
        } catch (MediaDownloader.DownloadException e) {
            // Nothing was sent to Google: another provider may fetch the frame itself.
            return new Outcome.Unavailable("image_unreadable", "frame image: " + e.getMessage(), 0, null);
        }
        SendTracker tracker = SendTracker.track(VeoOperation.body(call.prompt(), video, first, last));
        return calls.generating(call, tracker, () -> {
            Instant deadline = clock.instant().plus(call.timeout());
            URI submit = URI.create(base + "/v1beta/models/" + calls.modelOf(call) + ":predictLongRunning");
            HttpRequest.Builder request =
                    VendorCalls.billablePost(submit, call.timeout(), tracker).header(KEY_HEADER, key.secret());
            return switch (calls.send(request, new Credential.None(), tracker)) {
                case VendorExchange.Failed failed -> lost(failed.outcome());
                case VendorExchange.Answered answered ->
                    JobPoller.onSubmitted(
                            answered.response(),
                            VeoOperation::parse,
                            (status, body) -> VeoErrors.refused(status, body, calls.text(key)),
                            operation -> {
                                String name = operation.name();
                                call.listener().submitted(name);
                                BigDecimal seconds = BigDecimal.valueOf(video.durationSeconds());
                                return poller.await(
                                        name,
                                        deadline,
                                        "reconcile polls it by its name",
                                        left -> read(name, left, seconds));
                            });
            };
        });
    }

    /** A submit lost after its body left: unconfirmed, and it stays so (no name to ask about). */
    private static Outcome lost(Outcome outcome) {
        return outcome instanceof Outcome.Unconfirmed u
                ? new Outcome.Unconfirmed(u.code(), u.message() + VeoErrors.LOST, u.httpStatus(), null)
                : outcome;
    }

    private Optional<GenerationResult.Media> image(Optional<String> url) throws MediaDownloader.DownloadException {
        if (url.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(downloader.fetch(URI.create(url.get()), IMAGE_TIMEOUT));
    }

    private JobPoller.Read read(String name, Duration timeout, BigDecimal seconds) {
        VendorExchange exchange = operation(name, timeout);
        Optional<VeoOperation> operation = parsed(exchange);
        if (operation.isEmpty()) {
            return JobPoller.unread(exchange);
        }
        return JobPoller.of(
                ended(operation.get(), seconds), "done=" + operation.get().done());
    }

    private VendorExchange operation(String name, Duration timeout) {
        return keyed(VendorCalls.lookup(URI.create(base + "/v1beta/" + name), timeout)
                .GET());
    }

    private VendorExchange keyed(HttpRequest.Builder request) {
        if (calls.credential() instanceof Credential.Bearer key) {
            request.header(KEY_HEADER, key.secret());
        }
        return calls.ask(request, new Credential.None());
    }

    private static Optional<VeoOperation> parsed(VendorExchange exchange) {
        return exchange instanceof VendorExchange.Answered answered
                        && answered.response().statusCode() == 200
                ? VeoOperation.parse(answered.response().body())
                : Optional.empty();
    }

    /** The call's outcome once the operation is done; empty while it runs. */
    private Optional<Outcome> ended(VeoOperation operation, BigDecimal seconds) {
        if (!operation.done()) {
            return Optional.empty();
        }
        String name = operation.name();
        if (operation.failed()) {
            return Optional.of(VeoErrors.failed(name, operation.error(), calls.text()));
        }
        Optional<URI> uri = operation.video();
        if (uri.isEmpty()) {
            return Optional.of(VeoErrors.filtered(name, operation.videoResponse(), calls.text())
                    .orElseGet(() -> new Outcome.Unconfirmed(
                            "content_missing", "Veo operation " + name + " is done but names no video", 200, name)));
        }
        try {
            Map<String, String> key =
                    calls.credential() instanceof Credential.Bearer b ? Map.of(KEY_HEADER, b.secret()) : Map.of();
            GenerationResult.Media clip = downloader.spool(uri.get(), DOWNLOAD_TIMEOUT, key);
            BigDecimal cost = calls.settings().pricing().cost(Usage.outputSeconds(seconds));
            return Optional.of(new Outcome.Confirmed(new GenerationResult(List.of(clip)), 200, name, cost));
        } catch (MediaDownloader.DownloadException e) {
            return Optional.of(new Outcome.Unconfirmed("content_unreadable", name + ": " + e.getMessage(), 200, name));
        }
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        return calls.reconciling(attempt, () -> {
            Optional<String> name = attempt.providerRequestId()
                    .filter(n -> VeoOperation.NAME.matcher(n).matches());
            if (name.isEmpty()) {
                return new ReconcileAnswer.Unsupported("Veo takes no id of ours and lists no operations: only the lost "
                        + "submit answer named this attempt's operation, so an operator must check the Google account");
            }
            if (!(calls.credential() instanceof Credential.Bearer)) {
                return new ReconcileAnswer.StillUnknown("cannot ask Google: no usable key");
            }
            VendorExchange exchange = operation(name.get(), VendorCalls.LOOKUP_TIMEOUT);
            Optional<VeoOperation> operation = parsed(exchange);
            if (operation.isEmpty()) {
                return new ReconcileAnswer.StillUnknown("operation " + name.get() + ": "
                        + JobPoller.unread(exchange).lastSeen());
            }
            // Reconcile does not know the seconds asked for: the clip is priced at zero seconds here.
            return switch (ended(operation.get(), BigDecimal.ZERO).orElse(null)) {
                case null -> new ReconcileAnswer.StillUnknown("operation " + name.get() + " is still running");
                case Outcome.Confirmed confirmed -> new ReconcileAnswer.Delivered(confirmed);
                case Outcome.Rejected rejected ->
                    new ReconcileAnswer.Rejected(rejected.kind(), rejected.code(), rejected.message());
                case Outcome.Unavailable failed -> new ReconcileAnswer.Failed(failed.message(), false);
                case Outcome other ->
                    new ReconcileAnswer.StillUnknown("operation " + name.get() + ": " + other.errorCode());
            };
        });
    }

    @Override
    public CancelAnswer cancel(AttemptRef attempt) {
        return new CancelAnswer.Unsupported("the Gemini API offers no cancel for Veo operations");
    }

    @Override
    public HealthAnswer health() {
        if (!(calls.credential() instanceof Credential.Bearer)) {
            return new HealthAnswer(false, "no usable Gemini API key");
        }
        return VendorCalls.probe(
                "models",
                response -> response.statusCode() == 200,
                () -> keyed(
                        VendorCalls.lookup(URI.create(base + "/v1beta/models?pageSize=1"), VendorCalls.HEALTH_TIMEOUT)
                                .GET()));
    }
}
