package io.idem.providers.fal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.Credential;
import io.idem.providers.http.MediaDownloader;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.SubmissionBook;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fal.ai's queue API (adapter type {@code fal}; vendor-apis §3): submit, poll status, read the
 * result, download the files; cancel; reconcile by request id or, when the submit answer was lost,
 * by fal's request history.
 *
 * <p>The vendor model is the fal endpoint id ({@code fal-ai/flux/dev}). The key comes from the
 * variable {@code api_key_env} names (normally {@code FAL_KEY}) and is sent as {@code
 * Authorization: Key …}; it never appears in an outcome or a log line. The {@link HttpClient} is
 * the caller's (HTTP/1.1, {@code settings.connectTimeout()}, no redirects). Thread-safe.
 */
public final class FalAdapter implements ProviderAdapter {
    /** fal's queue host, the default {@code base_url}. */
    public static final URI DEFAULT_BASE_URL = FalEndpoints.DEFAULT_BASE;

    private static final Logger log = LoggerFactory.getLogger(FalAdapter.class);

    private final ProviderSettings settings;
    private final UnaryOperator<String> environment;
    private final InstantSource clock;
    private final SubmissionBook book = new SubmissionBook(SubmissionBook.DEFAULT_CAPACITY);
    private final FalSubmission submission;
    private final FalPolling polling;
    private final FalFollowUp followUp;

    public FalAdapter(ProviderSettings settings, HttpClient client) {
        this(settings, client, System::getenv, InstantSource.system(), PollSchedule.STANDARD);
    }

    /** With the environment, the clock and the poll pace standing in for the real ones, for tests. */
    FalAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            InstantSource clock,
            PollSchedule schedule) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.environment = Objects.requireNonNull(environment, "environment");
        this.clock = Objects.requireNonNull(clock, "clock");
        FalEndpoints endpoints = FalEndpoints.of(settings.baseUrl());
        FalQueue queue = new FalQueue(client, endpoints, this::credential);
        FalDelivery delivery = new FalDelivery(
                new MediaDownloader(client, MediaDownloader.DEFAULT_MAX_BYTES), settings.costPerImageUsd());
        FalCompletion completion = new FalCompletion(queue, delivery, schedule);
        this.submission = new FalSubmission(client, endpoints);
        this.polling = new FalPolling(queue, completion, clock, schedule);
        this.followUp = new FalFollowUp(queue, completion, delivery, book, clock);
    }

    @Override
    public Outcome generate(GenerationCall call) {
        Credential credential = credential();
        if (credential instanceof Credential.Missing missing) {
            return new Outcome.Rejected(RejectionKind.CONFIG, "missing_credential", missing.reason(), 0, null);
        }
        String endpointId = call.vendorModel() != null ? call.vendorModel() : settings.defaultModel();
        Optional<Outcome> refused = FalInput.refusal(call, endpointId);
        if (refused.isPresent()) {
            return refused.get();
        }
        ObjectNode input = FalInput.of(call);
        SendTracker tracker = SendTracker.track(FalSubmission.body(input));
        try {
            Instant start = clock.instant();
            book.remember(new SubmissionBook.Submission(
                    call.reference(), endpointId, input, start, call.timeout(), Optional.empty()));
            return switch (submission.submit(call, endpointId, input, credential, tracker)) {
                case FalSubmission.Answer.Settled settled -> settled.outcome();
                case FalSubmission.Answer.Accepted accepted -> {
                    String id = accepted.request().requestId();
                    call.listener().submitted(id);
                    book.identify(call.reference(), id);
                    yield polling.await(accepted.request(), start.plus(call.timeout()));
                }
            };
        } catch (RuntimeException e) {
            log.warn("fal adapter '{}' failed on attempt {}", settings.name(), call.reference(), e);
            return new Outcome.AdapterFault(
                    "fal adapter failed on " + call.reference() + ": "
                            + e.getClass().getSimpleName(),
                    tracker.bodyPulled());
        }
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        if (credential() instanceof Credential.Missing missing) {
            return new ReconcileAnswer.StillUnknown("cannot ask fal: " + missing.reason());
        }
        String endpointId = endpointOf(attempt);
        if (!FalEndpoints.validEndpoint(endpointId)) {
            return new ReconcileAnswer.StillUnknown("attempt " + attempt.reference() + " names no usable fal endpoint");
        }
        try {
            return followUp.reconcile(attempt, endpointId);
        } catch (RuntimeException e) {
            log.warn("fal adapter '{}' failed to reconcile attempt {}", settings.name(), attempt.reference(), e);
            return new ReconcileAnswer.StillUnknown(
                    "lookup failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    @Override
    public CancelAnswer cancel(AttemptRef attempt) {
        if (credential() instanceof Credential.Missing missing) {
            return new CancelAnswer.Unclear("cannot ask fal: " + missing.reason());
        }
        String endpointId = endpointOf(attempt);
        if (!FalEndpoints.validEndpoint(endpointId)) {
            return new CancelAnswer.Unclear("attempt " + attempt.reference() + " names no usable fal endpoint");
        }
        try {
            return followUp.cancel(attempt, endpointId);
        } catch (RuntimeException e) {
            log.warn("fal adapter '{}' failed to cancel attempt {}", settings.name(), attempt.reference(), e);
            return new CancelAnswer.Unclear(
                    "cancel failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    private String endpointOf(AttemptRef attempt) {
        return attempt.vendorModel() != null ? attempt.vendorModel() : settings.defaultModel();
    }

    private Credential credential() {
        return Credential.resolve(settings, environment);
    }
}
