package io.idem.providers.replicate;

import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.pricing.PricingModel;
import io.idem.core.pricing.Usage;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.MediaDownloader;
import io.idem.providers.http.VendorText;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What a prediction's state means: as the outcome of a call ({@link #outcome}) and as the answer
 * to a later lookup ({@link #answer}). A succeeded prediction's files are downloaded now (Replicate
 * deletes API outputs after an hour). Billing (vendor-apis §4): {@code aborted} never ran and is
 * free; {@code canceled} before it started is free, after it is billed for its run time; {@code
 * failed} ran and is billed. Thread-safe.
 */
final class PredictionVerdicts {
    static final Duration DOWNLOAD_TIMEOUT = Duration.ofSeconds(30);

    private final MediaDownloader downloader;
    private final PricingModel pricing;
    private final Supplier<VendorText> text;

    /** @param text what makes Replicate's words safe to keep */
    PredictionVerdicts(MediaDownloader downloader, PricingModel pricing, Supplier<VendorText> text) {
        this.downloader = downloader;
        this.pricing = pricing;
        this.text = text;
    }

    /** The outcome of a call whose prediction is in {@code p}'s state (one still running is past the deadline). */
    Outcome outcome(Prediction p) {
        String id = p.id();
        return switch (p.status()) {
            case SUCCEEDED -> delivered(p);
            case FAILED -> ReplicateErrors.failed(p, text.get());
            case ABORTED ->
                new Outcome.Unavailable("aborted", "prediction " + id + " passed its deadline unstarted", 0, id);
            case CANCELED ->
                p.started()
                        ? new Outcome.Unconfirmed(
                                "canceled_while_running", "prediction " + id + " was canceled while running", 0, id)
                        : new Outcome.Unavailable("canceled", "prediction " + id + " was canceled unstarted", 0, id);
            case STARTING, PROCESSING, OTHER ->
                new Outcome.Unconfirmed("timeout", "prediction " + id + " still " + p.rawStatus(), 0, id);
        };
    }

    /** What a lookup of {@code p} settles. */
    ReconcileAnswer answer(Prediction p) {
        String id = p.id();
        return switch (p.status()) {
            case SUCCEEDED ->
                switch (delivered(p)) {
                    case Outcome.Confirmed confirmed -> new ReconcileAnswer.Delivered(confirmed);
                    case Outcome.Unconfirmed u -> new ReconcileAnswer.StillUnknown(u.code() + ": " + u.message());
                    case Outcome.Rejected _, Outcome.Unavailable _, Outcome.AdapterFault _ ->
                        new ReconcileAnswer.StillUnknown("prediction " + id + " succeeded");
                };
            case FAILED -> failed(p);
            case ABORTED ->
                new ReconcileAnswer.NotBilled("prediction " + id + " passed its deadline unstarted (aborted)");
            case CANCELED ->
                p.started()
                        ? new ReconcileAnswer.Failed("prediction " + id + " was canceled while running", true)
                        : new ReconcileAnswer.NotBilled("prediction " + id + " was canceled before it started");
            case STARTING, PROCESSING, OTHER ->
                new ReconcileAnswer.StillUnknown("prediction " + id + " is " + p.rawStatus());
        };
    }

    /**
     * A failed prediction ran and is billed. A policy or input failure ends the job without
     * fallback (DESIGN §3), but a Failed answer would send it to its next candidate: only an
     * operator can fail it from review. Any other failure (the model crashed) may move on.
     */
    private ReconcileAnswer failed(Prediction p) {
        VendorText safe = text.get();
        return switch (ReplicateErrors.failed(p, safe)) {
            case Outcome.Rejected r ->
                new ReconcileAnswer.StillUnknown(r.message() + " (" + r.kind().wire()
                        + "); billed; an operator should fail the job, as no other provider may take it");
            case Outcome.Unconfirmed _, Outcome.Confirmed _, Outcome.Unavailable _, Outcome.AdapterFault _ ->
                new ReconcileAnswer.Failed(
                        "prediction " + p.id() + " failed: " + ReplicateErrors.errorText(p, safe), true);
        };
    }

    private Outcome delivered(Prediction p) {
        String id = p.id();
        List<URI> urls = p.outputUrls();
        if (urls.isEmpty()) {
            String why =
                    p.dataRemoved() ? "its output was removed by Replicate's retention" : "it has no readable output";
            return new Outcome.Unconfirmed("malformed_output", "prediction " + id + " succeeded but " + why, 200, id);
        }
        List<GenerationResult.Media> media = new ArrayList<>();
        try {
            for (URI url : urls) {
                // a clip is streamed to disk, an image held in memory: as its host says it is
                media.add(downloader.receive(url, DOWNLOAD_TIMEOUT));
            }
        } catch (MediaDownloader.DownloadException e) {
            media.forEach(GenerationResult.Media::discard); // the outputs fetched before this one
            return new Outcome.Unconfirmed(
                    "result_download_failed",
                    "prediction " + id + " succeeded but its output could not be fetched: " + e.getMessage(),
                    200,
                    id);
        }
        GenerationResult result = new GenerationResult(media);
        BigDecimal cost =
                pricing.cost(ReplicateVideo.isVideo(result) ? ReplicateVideo.usage(p) : Usage.images(media.size()));
        return new Outcome.Confirmed(result, 200, id, cost);
    }
}
