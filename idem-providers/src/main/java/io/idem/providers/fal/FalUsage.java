package io.idem.providers.fal;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.pricing.PricingModel;
import io.idem.core.pricing.Usage;
import io.idem.core.spi.UsageAnswer;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * fal's platform API request listing ({@code GET /v1/models/requests/by-endpoint?status=success},
 * one listing per endpoint the provider is configured for, 100 a page, {@code next_cursor} and
 * {@code has_more}) read as the day's itemized usage: one charge per successful request sent that
 * UTC day, keyed by its queue request id (the attempt's provider request id).
 *
 * <p>fal bills successful outputs; it never bills a 5xx, and a 422 only "may" be billed when a runner
 * spent GPU time on it, which the listing does not say, so user errors are not counted (Idem's audit
 * counts them free too). The listing carries no prices: each charge is Idem's own price for the
 * images its output lists (else the {@code num_images} its input asked for, else one), or for a
 * clip the seconds ({@code duration}) its input asked for. fal's time
 * filter may apply to the end time, so the window asked for runs {@link #LATE_END} past the day and
 * each request is placed by the time it was sent. Pages are followed up to a cap per endpoint; a
 * longer listing is a failed read. Thread-safe.
 */
final class FalUsage {
    /** 10,000 requests a day per endpoint. */
    static final int MAX_PAGES = 100;

    /** How long after the day a request sent on it may have ended and still be found. */
    static final Duration LATE_END = Duration.ofHours(1);

    private final FalQueue queue;
    private final PricingModel pricing;
    private final List<String> endpointIds;

    FalUsage(FalQueue queue, PricingModel pricing, List<String> endpointIds) {
        this.queue = queue;
        this.pricing = pricing;
        this.endpointIds = List.copyOf(endpointIds);
    }

    UsageAnswer day(LocalDate day) {
        if (endpointIds.isEmpty()) {
            return new UsageAnswer.Unsupported("the provider names no usable fal endpoint");
        }
        Instant start = day.atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant end = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        List<UsageAnswer.Charge> charges = new ArrayList<>();
        for (String endpointId : endpointIds) {
            Optional<UsageAnswer.Failed> failed = read(endpointId, start, end, charges);
            if (failed.isPresent()) {
                return failed.get();
            }
        }
        return new UsageAnswer.Itemized(charges);
    }

    private Optional<UsageAnswer.Failed> read(
            String endpointId, Instant start, Instant end, List<UsageAnswer.Charge> charges) {
        Optional<String> cursor = Optional.empty();
        for (int page = 0; page < MAX_PAGES; page++) {
            URI uri = queue.endpoints().billed(endpointId, start, end.plus(LATE_END), cursor);
            JsonNode root;
            switch (queue.get(uri, VendorCalls.LOOKUP_TIMEOUT)) {
                case VendorExchange.Failed failed -> {
                    return failure(endpointId, failed.detail());
                }
                case VendorExchange.Answered answered -> {
                    Optional<JsonNode> read = items(answered.response());
                    if (read.isEmpty()) {
                        return failure(endpointId, refusal(answered.response()));
                    }
                    root = read.get();
                }
            }
            for (JsonNode item : root.path("items")) {
                Optional<Instant> sent = sentAt(item);
                if (sent.isEmpty()) {
                    return failure(endpointId, "a request without a readable time");
                }
                if (succeeded(item) && !sent.get().isBefore(start) && sent.get().isBefore(end)) {
                    charges.add(new UsageAnswer.Charge(
                            VendorJson.text(item, "request_id"), pricing.cost(usage(item)), sent.get()));
                }
            }
            cursor = VendorJson.text(root, "next_cursor");
            if (cursor.isEmpty() || !root.path("has_more").asBoolean(false)) {
                return Optional.empty();
            }
        }
        return failure(endpointId, "longer than " + MAX_PAGES + " pages");
    }

    private static Optional<UsageAnswer.Failed> failure(String endpointId, String detail) {
        return Optional.of(new UsageAnswer.Failed("request listing of " + endpointId + ": " + detail));
    }

    private static boolean succeeded(JsonNode item) {
        JsonNode code = item.path("status_code");
        return code.isIntegralNumber() && code.asInt() >= 200 && code.asInt() <= 299;
    }

    /** When the request was sent (else started, else ended): the time Idem's attempt began. */
    private static Optional<Instant> sentAt(JsonNode item) {
        return VendorJson.text(item, "sent_at")
                .or(() -> VendorJson.text(item, "started_at"))
                .or(() -> VendorJson.text(item, "ended_at"))
                .flatMap(FalUsage::instant);
    }

    /**
     * What a listed request consumed: for a clip (its output is a {@code video}) the seconds its
     * input asked for; else its images.
     */
    private static Usage usage(JsonNode item) {
        JsonNode asked = item.path("json_input").path("duration");
        if (FalVideoDelivery.isVideo(item.path("json_output")) && asked.isNumber()) {
            return Usage.outputSeconds(asked.decimalValue().max(java.math.BigDecimal.ZERO));
        }
        return Usage.images(images(item));
    }

    /** The images the output lists, else those the input asked for, else one. */
    private static int images(JsonNode item) {
        int delivered = FalDelivery.mediaUrls(item.path("json_output")).size();
        if (delivered > 0) {
            return delivered;
        }
        JsonNode asked = item.path("json_input").path("num_images");
        return asked.isIntegralNumber() && asked.asInt() > 0 ? asked.asInt() : 1;
    }

    private static Optional<Instant> instant(String text) {
        try {
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Optional<JsonNode> items(HttpResponse<byte[]> response) {
        return VendorJson.parse(response.body())
                .filter(r -> response.statusCode() == 200)
                .filter(r -> r.path("items").isArray());
    }

    private String refusal(HttpResponse<byte[]> response) {
        int status = response.statusCode();
        if (status == 200) {
            return "an answer without an items list";
        }
        return "HTTP " + status + ": "
                + FalErrors.read(status, response.body(), response.headers(), queue.text())
                        .message();
    }
}
