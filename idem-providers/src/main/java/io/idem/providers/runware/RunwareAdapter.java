package io.idem.providers.runware;

import io.idem.core.domain.JobKind;
import io.idem.core.domain.VideoParams;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.core.text.Redactor;
import io.idem.providers.http.Credential;
import io.idem.providers.http.ImageSize;
import io.idem.providers.http.MediaDownloader;
import io.idem.providers.http.RetryAfter;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorText;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Adapter type {@code runware}: one async {@code imageInference} (or, for a video, {@link
 * RunwareVideoTask videoInference}) task per call on Runware's single endpoint ({@code POST
 * {base_url}}), under a task UUID we choose: our attempt reference.
 *
 * <p>Because we choose the UUID, a lost submit answer can always be looked up: {@link #reconcile}
 * asks {@code getResponse} about it. The submit asks for {@code 100 Continue} and is tracked by a
 * {@link SendTracker} (lost before the body left: {@code Unavailable}; after: {@code Unconfirmed});
 * it is never retried. Once Runware accepts the task its UUID goes to the listener, and the call
 * polls {@code getResponse} until the task ends or the call's timeout passes ({@code Unconfirmed},
 * {@code poll_timeout}: reconcile picks it up). Runware offers no cancel. {@code call.callback()}
 * becomes the task's {@code webhookURL}.
 *
 * <p>The {@link HttpClient} is the caller's, built for HTTP/1.1 with the provider's connect timeout
 * and without redirects. Thread-safe.
 */
public final class RunwareAdapter implements ProviderAdapter {
    /** Runware's REST endpoint, for a provider configured without a base URL. */
    public static final URI DEFAULT_BASE_URL = URI.create("https://api.runware.ai/v1");

    private final VendorCalls calls;
    private final InstantSource clock;
    private final URI endpoint;
    private final RunwareErrorReader errors;
    private final RunwareMedia media;
    private final RunwarePoller poller;
    private final RunwareFollowUp followUp;

    /**
     * @param environment where the key is read ({@code System::getenv} in production)
     * @param redactor hides the node's secrets in whatever Runware says
     */
    public RunwareAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock) {
        this(settings, client, environment, redactor, RunwareTuning.DEFAULTS, clock);
    }

    /** With test-sized timings and clock. */
    RunwareAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            RunwareTuning tuning,
            InstantSource clock) {
        this.calls = new VendorCalls(RunwareVendor.NAME, settings, client, environment, redactor);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.endpoint = URI.create(VendorCalls.trimmedBase(settings.baseUrl()));
        this.errors = new RunwareErrorReader(tuning.promptRefusal());
        this.media = new RunwareMedia(new MediaDownloader(client, tuning.maxDownloadBytes()), tuning.downloadTimeout());
        RunwareLookup lookup = new RunwareLookup(calls, endpoint);
        this.poller = new RunwarePoller(lookup, tuning, clock);
        this.followUp =
                new RunwareFollowUp(lookup, media, tuning, clock, calls::credential, calls::text, settings.pricing());
    }

    @Override
    public Outcome generate(GenerationCall call) {
        Credential credential = calls.credential();
        if (credential instanceof Credential.Missing missing) {
            return VendorCalls.missingCredential(missing);
        }
        Optional<String> task = taskUuid(call.reference());
        if (task.isEmpty()) {
            return new Outcome.AdapterFault("attempt reference " + call.reference() + " is not a UUID", false);
        }
        if (call.kind() == JobKind.VIDEO) {
            return submit(call, credential, task.get(), RunwareVideoTask.of(task.get(), calls.modelOf(call), call));
        }
        Optional<Outcome> unsupported = VendorCalls.unsupportedKind(call, "this adapter");
        if (unsupported.isPresent()) {
            return unsupported.get();
        }
        Optional<ImageSize> size = RunwareTasks.size(call.size());
        if (size.isEmpty()) {
            return new Outcome.Rejected(
                    RejectionKind.USER_ERROR, "invalid_size", "size must be WIDTHxHEIGHT, was " + call.size(), 0, null);
        }
        String model = calls.modelOf(call);
        return submit(
                call,
                credential,
                task.get(),
                RunwareTasks.imageInference(
                        task.get(), model, call.prompt(), size.get(), call.n(), call.callback(), call.image()));
    }

    /** Sends the one task (never retried) and follows it under our UUID. */
    private Outcome submit(GenerationCall call, Credential credential, String task, byte[] body) {
        SendTracker tracker = SendTracker.track(body);
        return calls.generating(call, tracker, () -> {
            HttpRequest.Builder request = VendorCalls.billablePost(endpoint, call.timeout(), tracker);
            Instant started = clock.instant();
            return switch (calls.send(request, credential, tracker)) {
                case VendorExchange.Failed failed -> failed.outcome();
                case VendorExchange.Answered answered -> answered(answered.response(), call, task, credential, started);
            };
        });
    }

    private Outcome answered(
            HttpResponse<byte[]> response, GenerationCall call, String task, Credential credential, Instant started) {
        Optional<RunwareReply> reply = RunwareReply.parse(response.body());
        int status = response.statusCode();
        boolean refusedInAck = reply.filter(
                        r -> r.itemsOf(task).isEmpty() && !r.errors().isEmpty())
                .isPresent();
        // Runware documents an immediate acknowledgement, not its status: any 2xx counts.
        if (status / 100 != 2 || refusedInAck) {
            Duration took = Duration.between(started, clock.instant());
            return RetryAfter.onto(
                    errors.refused(status, reply.flatMap(RunwareReply::firstError), task, took, calls.text(credential)),
                    response);
        }
        // Accepted (an unreadable 200 too: the task exists under our UUID either way, polling tells).
        call.listener().submitted(task);
        RunwareTaskState state = RunwareTaskState.of(status, reply, task);
        int expected = expected(call);
        if (!state.isFinal(expected)) {
            try {
                state = poller.await(task, credential, started.plus(call.timeout()), expected);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Outcome.Unconfirmed(
                        "interrupted", "stopped while waiting for task " + task + "; reconcile asks for it", 200, task);
            }
        }
        return settle(
                state,
                task,
                credential,
                call.video().map(VideoParams::durationSeconds).orElse(0));
    }

    /** The results a finished task carries: one clip, or the images asked for. */
    private static int expected(GenerationCall call) {
        return call.kind() == JobKind.VIDEO ? 1 : call.n();
    }

    private Outcome settle(RunwareTaskState state, String task, Credential credential, int clipSeconds) {
        VendorText text = calls.text(credential);
        return switch (state) {
            case RunwareTaskState.Succeeded succeeded ->
                switch (media.fetch(succeeded.items())) {
                    case RunwareMedia.Fetch.Fetched fetched ->
                        fetched.confirmed(task, calls.settings().pricing(), clipSeconds);
                    case RunwareMedia.Fetch.NotFetched notFetched ->
                        new Outcome.Unconfirmed(notFetched.code(), notFetched.detail(), 200, task);
                };
            case RunwareTaskState.Failed failed -> errors.failed(failed.error(), task, text);
            case RunwareTaskState.Running running -> unfinished(task, text.safe(running.detail()));
            case RunwareTaskState.NotFound notFound -> unfinished(task, text.safe(notFound.detail()));
            case RunwareTaskState.Unknown unknown -> unfinished(task, text.safe(unknown.detail()));
        };
    }

    private static Outcome unfinished(String task, String lastSeen) {
        return new Outcome.Unconfirmed(
                "poll_timeout",
                "task " + task + " did not finish within the call timeout (last seen: " + lastSeen
                        + "); reconcile asks for it by its UUID",
                200,
                task);
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        return calls.reconciling(attempt, () -> followUp.reconcile(attempt));
    }

    @Override
    public HealthAnswer health() {
        return calls.probeWithKey("ping", response -> response.statusCode() == 200, credential -> {
            SendTracker tracker = SendTracker.track(RunwareTasks.ping());
            HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                    .version(HttpClient.Version.HTTP_1_1)
                    .timeout(VendorCalls.HEALTH_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .POST(tracker);
            return calls.send(request, credential, tracker);
        });
    }

    /** {@code reference} as a canonical UUID string, if it is one (Runware's taskUUID must be). */
    static Optional<String> taskUuid(String reference) {
        try {
            UUID uuid = UUID.fromString(reference);
            return uuid.toString().equalsIgnoreCase(reference) ? Optional.of(uuid.toString()) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
