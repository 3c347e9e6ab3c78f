package io.idem.providers.kling;

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
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Adapter type {@code kling}: one Kling video task per call ({@code POST
 * /v1/videos/text2video}, or {@code image2video} from a first frame), under our attempt reference as
 * its {@code external_task_id}.
 *
 * <p>The submit asks for {@code 100 Continue} and is never retried (lost before the body left:
 * {@code Unavailable}; after: {@code Unconfirmed}). Kling's {@code task_id} goes to the listener as
 * {@code <action>/<task_id>} the moment the submit is answered; the call then polls {@code GET
 * /v1/videos/<action>/<task_id>} with backoff until the task ends or the call's timeout passes, and
 * streams the clip to disk. Because the external id is ours, a lost submit answer is found again:
 * {@link #reconcile} queries by it. Kling offers no cancel. Each request carries a freshly signed
 * token ({@link KlingToken}). Thread-safe.
 */
public final class KlingAdapter implements ProviderAdapter {
    /** Kling's global API host, for a provider configured without a base URL. */
    public static final URI DEFAULT_BASE_URL = URI.create("https://api-singapore.klingai.com");

    static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(5);

    private final KlingApi api;
    private final InstantSource clock;
    private final JobPoller poller;
    private final MediaDownloader downloader;

    public KlingAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock) {
        this(settings, client, environment, redactor, clock, PollSchedule.STANDARD);
    }

    /** With a test-sized poll schedule. */
    KlingAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock,
            PollSchedule schedule) {
        VendorCalls calls = new VendorCalls(KlingVendor.NAME, settings, client, environment, redactor);
        this.api = new KlingApi(calls, environment, clock);
        this.clock = clock;
        this.poller = new JobPoller(clock, schedule);
        this.downloader = new MediaDownloader(client, MediaDownloader.DEFAULT_MAX_BYTES);
    }

    @Override
    public Outcome generate(GenerationCall call) {
        Optional<Credential.Missing> missing = api.missingKey();
        if (missing.isPresent()) {
            return VendorCalls.missingCredential(missing.get());
        }
        if (call.kind() != JobKind.VIDEO) {
            return new Outcome.Rejected(
                    RejectionKind.CONFIG, "unsupported_kind", "Kling makes videos, not " + call.kind(), 0, null);
        }
        VideoParams video = call.video().orElse(VideoParams.DEFAULTS);
        String action = KlingTask.action(video);
        SendTracker tracker = SendTracker.track(
                KlingTask.body(api.calls().modelOf(call), call.prompt(), video, call.reference(), call.callback()));
        return api.calls().generating(call, tracker, () -> {
            Instant deadline = clock.instant().plus(call.timeout());
            return switch (api.submit(action, call.timeout(), tracker)) {
                case VendorExchange.Failed failed -> failed.outcome();
                case VendorExchange.Answered answered ->
                    JobPoller.onSubmitted(
                            answered.response(),
                            KlingTask::parse,
                            (status, body) -> KlingErrors.refused(status, body, api.text()),
                            task -> {
                                String id = action + "/" + task.id();
                                call.listener().submitted(id);
                                return poller.await(
                                        id,
                                        deadline,
                                        "reconcile asks for it by our external_task_id",
                                        left -> read(id, left, video.durationSeconds()));
                            });
            };
        });
    }

    private JobPoller.Read read(String id, Duration timeout, int askedSeconds) {
        VendorExchange exchange = api.query(id, timeout);
        Optional<KlingTask> task = KlingApi.task(exchange);
        if (task.isEmpty()) {
            return JobPoller.unread(exchange);
        }
        return JobPoller.of(ended(id, task.get(), askedSeconds), task.get().status());
    }

    /** The call's outcome once the task ended; empty while it runs. */
    private Optional<Outcome> ended(String id, KlingTask task, int askedSeconds) {
        return switch (task.status()) {
            case "succeed" -> Optional.of(delivered(id, task, BigDecimal.valueOf(askedSeconds)));
            case "failed" ->
                Optional.of(new Outcome.Unavailable(
                        "task_failed",
                        "Kling reports task " + id + " failed: " + api.text().safe(task.message()),
                        200,
                        id));
            default -> Optional.empty();
        };
    }

    /**
     * The finished clip streamed to disk and priced, else {@code Unconfirmed} (it exists, billed);
     * {@code askedSeconds} prices it where Kling states no duration.
     */
    Outcome delivered(String id, KlingTask task, BigDecimal askedSeconds) {
        if (task.video().isEmpty()) {
            return new Outcome.Unconfirmed(
                    "content_missing", "Kling reports task " + id + " succeeded but names no video", 200, id);
        }
        try {
            GenerationResult.Media clip = downloader.spool(task.video().get(), DOWNLOAD_TIMEOUT);
            return new Outcome.Confirmed(new GenerationResult(List.of(clip)), 200, id, cost(task, askedSeconds));
        } catch (MediaDownloader.DownloadException e) {
            return new Outcome.Unconfirmed("content_unreadable", "task " + id + ": " + e.getMessage(), 200, id);
        }
    }

    /** Seconds of output at the configured price (and Kling's deducted units, for a per-unit price). */
    private BigDecimal cost(KlingTask task, BigDecimal askedSeconds) {
        Usage usage = new Usage(
                0, task.seconds().orElse(askedSeconds), 0, 0, task.units().orElse(BigDecimal.ZERO));
        return api.calls().settings().pricing().cost(usage);
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        return api.calls().reconciling(attempt, () -> new KlingFollowUp(api, this, clock).reconcile(attempt));
    }

    @Override
    public CancelAnswer cancel(AttemptRef attempt) {
        return new CancelAnswer.Unsupported("Kling's API has no cancel: a submitted task runs to its end");
    }

    @Override
    public HealthAnswer health() {
        Optional<Credential.Missing> missing = api.missingKey();
        if (missing.isPresent()) {
            return new HealthAnswer(false, missing.get().reason());
        }
        return VendorCalls.probe(
                "task list",
                response -> response.statusCode() == 200,
                () -> api.get("/v1/videos/text2video?pageNum=1&pageSize=1", VendorCalls.HEALTH_TIMEOUT));
    }
}
