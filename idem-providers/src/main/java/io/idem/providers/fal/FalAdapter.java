package io.idem.providers.fal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.outcome.Outcome;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.core.spi.UsageAnswer;
import io.idem.core.text.Redactor;
import io.idem.providers.http.Credential;
import io.idem.providers.http.MediaDownloader;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.SubmissionBook;
import io.idem.providers.http.VendorCalls;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * fal.ai's queue API (adapter type {@code fal}; vendor-apis §3): submit, poll status, read the
 * result, download the files; cancel; reconcile by request id or, when the submit answer was lost,
 * by fal's request history; the day's successful requests, from the platform API, for the invoice
 * check.
 *
 * <p>A video call sends {@link FalVideoInput} to a video endpoint through the same queue; its clip
 * is streamed to disk ({@link FalVideoDelivery}) and priced by fal's {@code x-fal-billable-units}.
 *
 * <p>The vendor model is the fal endpoint id ({@code fal-ai/flux/dev}). The key comes from the
 * variable {@code api_key_env} names (normally {@code FAL_KEY}) and is sent as {@code
 * Authorization: Key …}; it never appears in an outcome or a log line. The {@link HttpClient} is
 * the caller's (HTTP/1.1, {@code settings.connectTimeout()}, no redirects). Thread-safe.
 */
public final class FalAdapter implements ProviderAdapter {
    /** fal's queue host, the default {@code base_url}. */
    public static final URI DEFAULT_BASE_URL = FalEndpoints.DEFAULT_BASE;

    private final VendorCalls calls;
    private final InstantSource clock;
    private final SubmissionBook book = new SubmissionBook(SubmissionBook.DEFAULT_CAPACITY);
    private final FalSubmission submission;
    private final FalPolling polling;
    private final FalFollowUp followUp;
    private final FalUsage usage;
    private final FalVideoDelivery videos;

    /**
     * @param environment where the key is read ({@code System::getenv} in production)
     * @param redactor hides the node's secrets in whatever fal says
     */
    public FalAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock) {
        this(settings, client, environment, redactor, clock, PollSchedule.STANDARD);
    }

    /** With the clock and the poll pace standing in for the real ones, for tests. */
    FalAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock,
            PollSchedule schedule) {
        this.calls = new VendorCalls(FalVendor.NAME, "Key", settings, client, environment, redactor);
        this.clock = Objects.requireNonNull(clock, "clock");
        FalEndpoints endpoints = FalEndpoints.of(settings.baseUrl());
        FalQueue queue = new FalQueue(calls, endpoints);
        FalDelivery delivery =
                new FalDelivery(new MediaDownloader(client, MediaDownloader.DEFAULT_MAX_BYTES), settings.pricing());
        MediaDownloader downloader = new MediaDownloader(client, MediaDownloader.DEFAULT_MAX_BYTES);
        this.videos = new FalVideoDelivery(downloader, settings.pricing());
        FalCompletion completion = new FalCompletion(queue, delivery, videos, schedule);
        this.submission = new FalSubmission(calls, endpoints);
        this.polling = new FalPolling(queue, completion, clock, schedule);
        this.followUp = new FalFollowUp(queue, completion, book, clock);
        this.usage = new FalUsage(queue, settings.pricing(), endpointIds(settings));
    }

    /** The endpoints the provider is configured for: its default and every mapped one that is valid. */
    private static List<String> endpointIds(ProviderSettings settings) {
        return Stream.concat(Stream.of(settings.defaultModel()), settings.models().values().stream())
                .filter(FalEndpoints::validEndpoint)
                .distinct()
                .toList();
    }

    @Override
    public Outcome generate(GenerationCall call) {
        Credential credential = calls.credential();
        if (credential instanceof Credential.Missing missing) {
            return VendorCalls.missingCredential(missing);
        }
        String endpointId = calls.modelOf(call);
        boolean video = FalVideoInput.applies(call);
        Optional<Outcome> refused = video ? FalVideoInput.refusal(endpointId) : FalInput.refusal(call, endpointId);
        if (refused.isPresent()) {
            return refused.get();
        }
        ObjectNode input = video ? FalVideoInput.of(call) : FalInput.of(call);
        SendTracker tracker = SendTracker.track(FalSubmission.body(input));
        return calls.generating(call, tracker, () -> {
            Instant start = clock.instant();
            book.remember(new SubmissionBook.Submission(
                    call.reference(), endpointId, input, start, call.timeout(), Optional.empty()));
            return switch (submission.submit(call, endpointId, input, credential, tracker)) {
                case FalSubmission.Answer.Settled settled -> settled.outcome();
                case FalSubmission.Answer.Accepted accepted -> {
                    String id = accepted.request().requestId();
                    call.listener().submitted(id);
                    book.identify(call.reference(), id);
                    call.video().ifPresent(clip -> videos.expect(id, clip.durationSeconds()));
                    yield polling.await(accepted.request(), start.plus(call.timeout()));
                }
            };
        });
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        if (calls.credential() instanceof Credential.Missing missing) {
            return new ReconcileAnswer.StillUnknown("cannot ask fal: " + missing.reason());
        }
        String endpointId = calls.modelOf(attempt);
        if (!FalEndpoints.validEndpoint(endpointId)) {
            return new ReconcileAnswer.StillUnknown("attempt " + attempt.reference() + " names no usable fal endpoint");
        }
        return calls.reconciling(attempt, () -> followUp.reconcile(attempt, endpointId));
    }

    @Override
    public CancelAnswer cancel(AttemptRef attempt) {
        if (calls.credential() instanceof Credential.Missing missing) {
            return new CancelAnswer.Unclear("cannot ask fal: " + missing.reason());
        }
        String endpointId = calls.modelOf(attempt);
        if (!FalEndpoints.validEndpoint(endpointId)) {
            return new CancelAnswer.Unclear("attempt " + attempt.reference() + " names no usable fal endpoint");
        }
        return calls.canceling(attempt, () -> followUp.cancel(attempt, endpointId));
    }

    /**
     * The day's successful requests of the provider's endpoints from fal's platform API, one charge
     * per request id at Idem's own price (the listing has no prices); read with the provider's key.
     */
    @Override
    public UsageAnswer usage(LocalDate day) {
        if (calls.credential() instanceof Credential.Missing missing) {
            return new UsageAnswer.Failed("cannot ask fal: " + missing.reason());
        }
        try {
            return usage.day(day);
        } catch (RuntimeException e) {
            return new UsageAnswer.Failed(
                    "request listing failed in the adapter: " + e.getClass().getSimpleName());
        }
    }
}
