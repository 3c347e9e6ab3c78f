package io.idem.providers.replicate;

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
 * Replicate's predictions API (adapter type {@code replicate}; vendor-apis §4): create (with
 * {@code Prefer: wait} and a {@code Cancel-After} deadline), poll, download the output; cancel;
 * reconcile by prediction id or, when the create answer was lost, by listing and matching the
 * input.
 *
 * <p>The vendor model is {@code owner/name}, {@code owner/name:<version>}, a bare version id or
 * {@code deployments/owner/name}. The token comes from the variable {@code api_key_env} names
 * (normally {@code REPLICATE_API_TOKEN}) and is sent as {@code Authorization: Bearer …}; it never
 * appears in an outcome or a log line. The {@link HttpClient} is the caller's (HTTP/1.1, {@code
 * settings.connectTimeout()}, no redirects). Thread-safe.
 */
public final class ReplicateAdapter implements ProviderAdapter {
    /** Replicate's API host, the default {@code base_url}. */
    public static final URI DEFAULT_BASE_URL = ReplicateEndpoints.DEFAULT_BASE;

    private static final Logger log = LoggerFactory.getLogger(ReplicateAdapter.class);

    private final ProviderSettings settings;
    private final UnaryOperator<String> environment;
    private final InstantSource clock;
    private final SubmissionBook book = new SubmissionBook(SubmissionBook.DEFAULT_CAPACITY);
    private final ReplicateCreation creation;
    private final ReplicatePolling polling;
    private final ReplicateFollowUp followUp;

    public ReplicateAdapter(ProviderSettings settings, HttpClient client) {
        this(settings, client, System::getenv, InstantSource.system(), PollSchedule.STANDARD);
    }

    /** With the environment, the clock and the poll pace standing in for the real ones, for tests. */
    ReplicateAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            InstantSource clock,
            PollSchedule schedule) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.environment = Objects.requireNonNull(environment, "environment");
        this.clock = Objects.requireNonNull(clock, "clock");
        ReplicateEndpoints endpoints = ReplicateEndpoints.of(settings.baseUrl());
        ReplicateApi api = new ReplicateApi(client, endpoints, this::credential);
        PredictionVerdicts verdicts = new PredictionVerdicts(
                new MediaDownloader(client, MediaDownloader.DEFAULT_MAX_BYTES), settings.costPerImageUsd());
        this.creation = new ReplicateCreation(client, endpoints);
        this.polling = new ReplicatePolling(api, verdicts, clock, schedule);
        this.followUp = new ReplicateFollowUp(api, verdicts, book, clock);
    }

    @Override
    public Outcome generate(GenerationCall call) {
        Credential credential = credential();
        if (credential instanceof Credential.Missing missing) {
            return new Outcome.Rejected(RejectionKind.CONFIG, "missing_credential", missing.reason(), 0, null);
        }
        String vendorModel = call.vendorModel() != null ? call.vendorModel() : settings.defaultModel();
        Optional<Outcome> refused = ReplicateInput.refusal(call, vendorModel);
        if (refused.isPresent()) {
            return refused.get();
        }
        ReplicateModel model = ReplicateModel.parse(vendorModel).orElseThrow();
        ObjectNode input = ReplicateInput.of(call);
        SendTracker tracker = SendTracker.track(ReplicateCreation.body(model, input, call));
        try {
            Instant start = clock.instant();
            book.remember(new SubmissionBook.Submission(
                    call.reference(), vendorModel, input, start, call.timeout(), Optional.empty()));
            return switch (creation.create(call, model, credential, tracker)) {
                case ReplicateCreation.Answer.Settled settled -> settled.outcome();
                case ReplicateCreation.Answer.Created created -> {
                    String id = created.prediction().id();
                    call.listener().submitted(id);
                    book.identify(call.reference(), id);
                    yield polling.await(created.prediction(), start.plus(call.timeout()));
                }
            };
        } catch (RuntimeException e) {
            log.warn("replicate adapter '{}' failed on attempt {}", settings.name(), call.reference(), e);
            return new Outcome.AdapterFault(
                    "replicate adapter failed on " + call.reference() + ": "
                            + e.getClass().getSimpleName(),
                    tracker.bodyPulled());
        }
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        if (credential() instanceof Credential.Missing missing) {
            return new ReconcileAnswer.StillUnknown("cannot ask Replicate: " + missing.reason());
        }
        Optional<ReplicateModel> model = ReplicateModel.parse(modelOf(attempt));
        if (model.isEmpty()) {
            return new ReconcileAnswer.StillUnknown(
                    "attempt " + attempt.reference() + " names no usable Replicate model");
        }
        try {
            return followUp.reconcile(attempt, model.get());
        } catch (RuntimeException e) {
            log.warn("replicate adapter '{}' failed to reconcile attempt {}", settings.name(), attempt.reference(), e);
            return new ReconcileAnswer.StillUnknown(
                    "lookup failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    @Override
    public CancelAnswer cancel(AttemptRef attempt) {
        if (credential() instanceof Credential.Missing missing) {
            return new CancelAnswer.Unclear("cannot ask Replicate: " + missing.reason());
        }
        try {
            return followUp.cancel(attempt);
        } catch (RuntimeException e) {
            log.warn("replicate adapter '{}' failed to cancel attempt {}", settings.name(), attempt.reference(), e);
            return new CancelAnswer.Unclear(
                    "cancel failed in the adapter: " + e.getClass().getSimpleName());
        }
    }

    private String modelOf(AttemptRef attempt) {
        return attempt.vendorModel() != null ? attempt.vendorModel() : settings.defaultModel();
    }

    private Credential credential() {
        return Credential.resolve(settings, environment);
    }
}
