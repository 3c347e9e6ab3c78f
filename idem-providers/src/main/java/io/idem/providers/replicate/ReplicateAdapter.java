package io.idem.providers.replicate;

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
 * Replicate's predictions API (adapter type {@code replicate}; vendor-apis §4): create (with
 * {@code Prefer: wait} and a {@code Cancel-After} deadline), poll, download the output; cancel;
 * reconcile by prediction id or, when the create answer was lost, by listing and matching the
 * input; the day's billable predictions, from the same listing, for the invoice check.
 *
 * <p>The vendor model is {@code owner/name}, {@code owner/name:<version>}, a bare version id or
 * {@code deployments/owner/name}. The token comes from the variable {@code api_key_env} names
 * (normally {@code REPLICATE_API_TOKEN}) and is sent as {@code Authorization: Bearer …}; it never
 * appears in an outcome or a log line. A video call sends {@link ReplicateVideo}'s input, with
 * {@code Cancel-After} at the job's deadline; its clip is streamed to disk. The {@link HttpClient} is the caller's (HTTP/1.1, {@code
 * settings.connectTimeout()}, no redirects). Thread-safe.
 */
public final class ReplicateAdapter implements ProviderAdapter {
    /** Replicate's API host, the default {@code base_url}. */
    public static final URI DEFAULT_BASE_URL = ReplicateEndpoints.DEFAULT_BASE;

    private final VendorCalls calls;
    private final InstantSource clock;
    private final SubmissionBook book = new SubmissionBook(SubmissionBook.DEFAULT_CAPACITY);
    private final ReplicateCreation creation;
    private final ReplicatePolling polling;
    private final ReplicateFollowUp followUp;
    private final ReplicateUsage usage;

    /**
     * @param environment where the token is read ({@code System::getenv} in production)
     * @param redactor hides the node's secrets in whatever Replicate says
     */
    public ReplicateAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock) {
        this(settings, client, environment, redactor, clock, PollSchedule.STANDARD);
    }

    /** With the clock and the poll pace standing in for the real ones, for tests. */
    ReplicateAdapter(
            ProviderSettings settings,
            HttpClient client,
            UnaryOperator<String> environment,
            Redactor redactor,
            InstantSource clock,
            PollSchedule schedule) {
        this.calls = new VendorCalls(ReplicateVendor.NAME, settings, client, environment, redactor);
        this.clock = Objects.requireNonNull(clock, "clock");
        ReplicateEndpoints endpoints = ReplicateEndpoints.of(settings.baseUrl());
        ReplicateApi api = new ReplicateApi(calls, endpoints);
        PredictionVerdicts verdicts = new PredictionVerdicts(
                new MediaDownloader(client, MediaDownloader.DEFAULT_MAX_BYTES), settings.pricing(), calls::text);
        this.creation = new ReplicateCreation(calls, endpoints, clock);
        this.polling = new ReplicatePolling(api, verdicts, clock, schedule);
        this.followUp = new ReplicateFollowUp(api, verdicts, book, clock);
        this.usage = new ReplicateUsage(api, calls, models(settings));
    }

    /** The models the provider is configured for: its default and every mapped one that parses. */
    private static List<ReplicateModel> models(ProviderSettings settings) {
        return Stream.concat(Stream.of(settings.defaultModel()), settings.models().values().stream())
                .distinct()
                .map(ReplicateModel::parse)
                .flatMap(Optional::stream)
                .toList();
    }

    @Override
    public Outcome generate(GenerationCall call) {
        Credential credential = calls.credential();
        if (credential instanceof Credential.Missing missing) {
            return VendorCalls.missingCredential(missing);
        }
        String vendorModel = calls.modelOf(call);
        boolean video = ReplicateVideo.applies(call);
        Optional<Outcome> refused =
                video ? ReplicateInput.invalidModel(vendorModel) : ReplicateInput.refusal(call, vendorModel);
        if (refused.isPresent()) {
            return refused.get();
        }
        ReplicateModel model = ReplicateModel.parse(vendorModel).orElseThrow();
        ObjectNode input = video ? ReplicateVideo.input(call) : ReplicateInput.of(call);
        SendTracker tracker = SendTracker.track(ReplicateCreation.body(model, input, call));
        return calls.generating(call, tracker, () -> {
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
        });
    }

    @Override
    public ReconcileAnswer reconcile(AttemptRef attempt) {
        if (calls.credential() instanceof Credential.Missing missing) {
            return new ReconcileAnswer.StillUnknown("cannot ask Replicate: " + missing.reason());
        }
        Optional<ReplicateModel> model = ReplicateModel.parse(calls.modelOf(attempt));
        if (model.isEmpty()) {
            return new ReconcileAnswer.StillUnknown(
                    "attempt " + attempt.reference() + " names no usable Replicate model");
        }
        return calls.reconciling(attempt, () -> followUp.reconcile(attempt, model.get()));
    }

    @Override
    public CancelAnswer cancel(AttemptRef attempt) {
        if (calls.credential() instanceof Credential.Missing missing) {
            return new CancelAnswer.Unclear("cannot ask Replicate: " + missing.reason());
        }
        return calls.canceling(attempt, () -> followUp.cancel(attempt));
    }

    /**
     * The day's billable predictions of the provider's models from Replicate's prediction list,
     * one charge per prediction id at Idem's own price (the list has no prices); read with the
     * provider's own token.
     */
    @Override
    public UsageAnswer usage(LocalDate day) {
        if (calls.credential() instanceof Credential.Missing missing) {
            return new UsageAnswer.Failed("cannot ask Replicate: " + missing.reason());
        }
        try {
            return usage.day(day);
        } catch (RuntimeException e) {
            return new UsageAnswer.Failed(
                    "prediction list failed in the adapter: " + e.getClass().getSimpleName());
        }
    }
}
