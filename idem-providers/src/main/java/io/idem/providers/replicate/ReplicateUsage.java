package io.idem.providers.replicate;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.pricing.PricingModel;
import io.idem.core.pricing.Usage;
import io.idem.core.spi.UsageAnswer;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import io.idem.providers.http.VendorText;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Replicate's prediction list ({@code GET /v1/predictions?created_after&created_before}, 100 a page,
 * newest first, a {@code next} URL) read as the day's itemized usage: one charge per billable
 * prediction created that UTC day through the API on one of the provider's models, keyed by its
 * prediction id (the attempt's provider request id).
 *
 * <p>Billable: {@code succeeded} and {@code failed} (both ran), {@code canceled} once it had
 * started; never {@code aborted}, a {@code canceled} one that never started, or one not finished
 * when the list is read. The list carries no prices, so each charge is Idem's own price for what
 * the prediction shows: {@code metrics.image_count} (else its output files, else one) images and
 * {@code metrics.predict_time} seconds as the vendor unit, and for a clip (an input that asks for
 * a {@code duration}) its seconds instead of images; the pricing model reads the unit it prices. What the check finds is which predictions Idem has no attempt for and how the counts
 * compare, not Replicate's amounts. Pages are followed up to a cap; a longer day is a failed read.
 * Thread-safe.
 */
final class ReplicateUsage {
    /** 20,000 predictions a day. */
    static final int MAX_PAGES = 200;

    private final ReplicateApi api;
    private final VendorCalls calls;
    private final PricingModel pricing;
    private final List<ReplicateModel> models;

    ReplicateUsage(ReplicateApi api, VendorCalls calls, List<ReplicateModel> models) {
        this.api = api;
        this.calls = calls;
        this.pricing = calls.settings().pricing();
        this.models = List.copyOf(models);
    }

    /** A listed prediction as the invoice check reads it. */
    private record Listed(String id, Instant createdAt, boolean web, Usage usage) {}

    UsageAnswer day(LocalDate day) {
        if (models.isEmpty()) {
            return new UsageAnswer.Unsupported("the provider names no usable Replicate model");
        }
        Instant start = day.atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant end = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        List<UsageAnswer.Charge> charges = new ArrayList<>();
        URI page = api.endpoints().list(start, end);
        for (int n = 0; n < MAX_PAGES; n++) {
            JsonNode root;
            switch (api.get(page, VendorCalls.LOOKUP_TIMEOUT)) {
                case VendorExchange.Failed failed -> {
                    return new UsageAnswer.Failed("prediction list: " + failed.detail());
                }
                case VendorExchange.Answered answered -> {
                    Optional<JsonNode> read = results(answered.response());
                    if (read.isEmpty()) {
                        return refused(answered.response());
                    }
                    root = read.get();
                }
            }
            for (JsonNode item : root.path("results")) {
                Optional<Prediction> prediction = Prediction.read(item);
                Optional<Listed> listed = prediction.flatMap(p -> listed(p, item));
                if (listed.isEmpty()) {
                    return new UsageAnswer.Failed("prediction list with an unreadable prediction");
                }
                if (counts(prediction.get(), listed.get(), start, end)) {
                    charges.add(charge(listed.get()));
                }
            }
            Optional<String> named = VendorJson.text(root, "next");
            if (named.isEmpty()) {
                return new UsageAnswer.Itemized(charges);
            }
            Optional<URI> next = api.endpoints().vendor(named);
            if (next.isEmpty()) {
                return new UsageAnswer.Failed("prediction list names its next page off the configured host");
            }
            page = next.get();
        }
        return new UsageAnswer.Failed("prediction list longer than " + MAX_PAGES + " pages");
    }

    private boolean counts(Prediction p, Listed listed, Instant start, Instant end) {
        return !listed.web()
                && !listed.createdAt().isBefore(start)
                && listed.createdAt().isBefore(end)
                && billable(p)
                && models.stream().anyMatch(m -> m.ran(p));
    }

    /** Replicate bills a prediction that ran: succeeded, failed, or canceled after it started. */
    static boolean billable(Prediction p) {
        return switch (p.status()) {
            case SUCCEEDED, FAILED -> true;
            case CANCELED -> p.started();
            case ABORTED, STARTING, PROCESSING, OTHER -> false;
        };
    }

    private UsageAnswer.Charge charge(Listed listed) {
        BigDecimal cost = pricing.cost(listed.usage());
        return new UsageAnswer.Charge(Optional.of(listed.id()), cost, listed.createdAt());
    }

    private static Optional<Listed> listed(Prediction p, JsonNode item) {
        Optional<Instant> created = VendorJson.text(item, "created_at").flatMap(ReplicateUsage::instant);
        JsonNode metrics = item.path("metrics");
        JsonNode seconds = metrics.path("predict_time");
        if (created.isEmpty() || (!seconds.isMissingNode() && !seconds.isNull() && !seconds.isNumber())) {
            return Optional.empty();
        }
        BigDecimal predict = seconds.isNumber() ? seconds.decimalValue().max(BigDecimal.ZERO) : BigDecimal.ZERO;
        JsonNode count = metrics.path("image_count");
        int images = count.canConvertToInt() && count.isIntegralNumber() && count.asInt() >= 0
                ? count.asInt()
                : Math.max(1, p.outputUrls().size());
        boolean web = VendorJson.text(item, "source").filter("web"::equals).isPresent();
        Usage usage =
                ReplicateVideo.isClip(p) ? ReplicateVideo.usage(p) : new Usage(images, BigDecimal.ZERO, 0, 0, predict);
        return Optional.of(new Listed(p.id(), created.get(), web, usage));
    }

    private static Optional<Instant> instant(String text) {
        try {
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Optional<JsonNode> results(HttpResponse<byte[]> response) {
        return VendorJson.parse(response.body())
                .filter(r -> response.statusCode() == 200)
                .filter(r -> r.path("results").isArray());
    }

    private UsageAnswer refused(HttpResponse<byte[]> response) {
        int status = response.statusCode();
        if (status == 200) {
            return new UsageAnswer.Failed("prediction list without a results list");
        }
        VendorText text = calls.text();
        String said = ReplicateErrors.read(status, response.body(), text).message();
        return new UsageAnswer.Failed("prediction list answered HTTP " + status + ": " + said);
    }
}
