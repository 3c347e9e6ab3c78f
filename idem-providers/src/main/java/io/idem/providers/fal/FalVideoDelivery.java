package io.idem.providers.fal;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.pricing.PricingModel;
import io.idem.core.pricing.Usage;
import io.idem.providers.http.MediaDownloader;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a successful fal video output ({@code video.url}) into a clip in hand: streamed to a file
 * at once ({@link MediaDownloader#spool}), never held whole in memory, before fal's URL expires.
 *
 * <p>Cost: fal states what it billed in the result's {@code x-fal-billable-units} header (for a
 * per-second model, the seconds); those units are priced as seconds of output (and as vendor
 * units, for a provider priced per unit). Without the header, the clip's {@code duration} in the
 * output, else the seconds the call asked for (remembered per request id while this node runs),
 * at the configured price per second. Thread-safe.
 */
final class FalVideoDelivery {
    static final String BILLABLE_UNITS = "x-fal-billable-units";
    private static final int REMEMBERED = 10_000;

    private final MediaDownloader downloader;
    private final PricingModel pricing;
    private final Map<String, Integer> askedSeconds = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > REMEMBERED;
        }
    };

    FalVideoDelivery(MediaDownloader downloader, PricingModel pricing) {
        this.downloader = downloader;
        this.pricing = pricing;
    }

    /** Whether fal's output is a clip (and so delivered here). */
    static boolean isVideo(JsonNode output) {
        return output.path("video").isObject();
    }

    /** The seconds request {@code requestId} asked for, the price when fal states no units. */
    synchronized void expect(String requestId, int seconds) {
        askedSeconds.put(requestId, seconds);
    }

    private synchronized Optional<Integer> asked(String requestId) {
        return Optional.ofNullable(askedSeconds.remove(requestId));
    }

    Outcome deliver(JsonNode output, HttpHeaders headers, String requestId) {
        List<URI> urls = FalDelivery.mediaUrls(output);
        if (urls.size() != 1) {
            return new Outcome.Unconfirmed(
                    "malformed_result",
                    "fal request " + requestId + " completed without a readable video",
                    200,
                    requestId);
        }
        GenerationResult.Media clip;
        try {
            clip = downloader.spool(urls.getFirst(), FalDelivery.DOWNLOAD_TIMEOUT);
        } catch (MediaDownloader.DownloadException e) {
            return new Outcome.Unconfirmed(
                    "result_download_failed",
                    "fal request " + requestId + " succeeded but its video could not be fetched: " + e.getMessage(),
                    200,
                    requestId);
        }
        return new Outcome.Confirmed(
                new GenerationResult(List.of(clip)), 200, requestId, cost(output, headers, requestId));
    }

    private BigDecimal cost(JsonNode output, HttpHeaders headers, String requestId) {
        Optional<BigDecimal> units = billableUnits(headers);
        Optional<Integer> asked = asked(requestId);
        BigDecimal seconds = units.or(() -> duration(output))
                .or(() -> asked.map(BigDecimal::valueOf))
                .orElse(BigDecimal.ZERO);
        return pricing.cost(new Usage(0, seconds, 0, 0, units.orElse(seconds)));
    }

    /** fal's {@code x-fal-billable-units}, when it is a non-negative number. */
    static Optional<BigDecimal> billableUnits(HttpHeaders headers) {
        return headers.firstValue(BILLABLE_UNITS).flatMap(FalVideoDelivery::number);
    }

    private static Optional<BigDecimal> duration(JsonNode output) {
        JsonNode d =
                output.path("video").has("duration") ? output.path("video").path("duration") : output.path("duration");
        return d.isNumber() && d.decimalValue().signum() >= 0 ? Optional.of(d.decimalValue()) : Optional.empty();
    }

    private static Optional<BigDecimal> number(String text) {
        try {
            BigDecimal value = new BigDecimal(text.trim());
            return value.signum() >= 0 ? Optional.of(value) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
