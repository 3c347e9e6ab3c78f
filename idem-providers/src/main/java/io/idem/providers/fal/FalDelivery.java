package io.idem.providers.fal;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.pricing.PricingModel;
import io.idem.core.pricing.Usage;
import io.idem.providers.http.MediaDownloader;
import io.idem.providers.http.VendorJson;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns a successful fal output into media in hand. fal's file URLs expire, so the files are
 * fetched now. The output was paid for: when it cannot be read or fetched the outcome is {@code
 * Unconfirmed} (an operator decides), never {@code Unavailable}. Thread-safe.
 */
final class FalDelivery {
    static final Duration DOWNLOAD_TIMEOUT = Duration.ofSeconds(30);

    private final MediaDownloader downloader;
    private final PricingModel pricing;

    FalDelivery(MediaDownloader downloader, PricingModel pricing) {
        this.downloader = downloader;
        this.pricing = pricing;
    }

    Outcome deliver(JsonNode output, String requestId) {
        List<URI> urls = mediaUrls(output);
        if (urls.isEmpty()) {
            return new Outcome.Unconfirmed(
                    "malformed_result",
                    "fal request " + requestId + " completed without a readable image",
                    200,
                    requestId);
        }
        List<GenerationResult.Media> media;
        try {
            media = downloader.fetchAll(urls, DOWNLOAD_TIMEOUT);
        } catch (MediaDownloader.DownloadException e) {
            return new Outcome.Unconfirmed(
                    "result_download_failed",
                    "fal request " + requestId + " succeeded but its result could not be fetched: " + e.getMessage(),
                    200,
                    requestId);
        }
        BigDecimal cost = pricing.cost(Usage.images(media.size()));
        return new Outcome.Confirmed(new GenerationResult(media), 200, requestId, cost);
    }

    /**
     * The media URLs of a model output: {@code images[].url}, {@code image.url} or {@code
     * video.url}. Empty if there is none or any one is unreadable.
     */
    static List<URI> mediaUrls(JsonNode output) {
        List<JsonNode> items = new ArrayList<>();
        output.path("images").forEach(items::add);
        if (output.path("image").isObject()) {
            items.add(output.path("image"));
        }
        if (output.path("video").isObject()) {
            items.add(output.path("video"));
        }
        List<URI> urls = new ArrayList<>();
        for (JsonNode item : items) {
            Optional<URI> url = VendorJson.text(item, "url").flatMap(VendorJson::uri);
            if (url.isEmpty()) {
                return List.of();
            }
            urls.add(url.get());
        }
        return urls;
    }
}
