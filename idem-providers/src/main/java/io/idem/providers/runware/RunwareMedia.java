package io.idem.providers.runware;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.pricing.PricingModel;
import io.idem.core.pricing.Usage;
import io.idem.providers.http.ImageBytes;
import io.idem.providers.http.MediaDownloader;
import io.idem.providers.http.VendorJson;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Turns Runware's success items into bytes in hand: {@code imageBase64Data}, {@code imageDataURI}
 * or {@code imageURL} (fetched at once), or a clip's {@code videoURL} (streamed to disk at once). Thread-safe.
 */
final class RunwareMedia {
    private final MediaDownloader downloader;
    private final Duration downloadTimeout;

    RunwareMedia(MediaDownloader downloader, Duration downloadTimeout) {
        this.downloader = downloader;
        this.downloadTimeout = downloadTimeout;
    }

    /** The images, or why they are not in hand. */
    sealed interface Fetch {
        record Fetched(GenerationResult result, Optional<BigDecimal> vendorCost) implements Fetch {
            /** The delivery, priced by Runware when it said, else by our configured price per image. */
            Outcome.Confirmed confirmed(String task, PricingModel pricing) {
                return confirmed(task, pricing, 0);
            }

            /**
             * The delivery, priced by Runware when it said, else by our configured price: per image,
             * or for a clip per second of the {@code clipSeconds} asked for.
             */
            Outcome.Confirmed confirmed(String task, PricingModel pricing, int clipSeconds) {
                boolean clip =
                        result.media().stream().anyMatch(m -> m.mimeType().startsWith("video/"));
                Usage usage = clip
                        ? Usage.outputSeconds(BigDecimal.valueOf(clipSeconds))
                        : Usage.images(result.media().size());
                BigDecimal cost = vendorCost.orElseGet(() -> pricing.cost(usage));
                return new Outcome.Confirmed(result, 200, task, cost);
            }
        }

        record NotFetched(String code, String detail) implements Fetch {}
    }

    static boolean carriesImage(JsonNode item) {
        return VendorJson.text(item, "videoURL").isPresent()
                || VendorJson.text(item, "imageBase64Data").isPresent()
                || VendorJson.text(item, "imageDataURI").isPresent()
                || VendorJson.text(item, "imageURL").isPresent();
    }

    Fetch fetch(List<JsonNode> items) {
        List<GenerationResult.Media> media = new ArrayList<>();
        for (JsonNode item : items) {
            try {
                media.add(one(item));
            } catch (MediaDownloader.DownloadException e) {
                return notFetched(
                        media,
                        "result_download_failed",
                        "the task succeeded, but fetching image " + (media.size() + 1) + " failed: " + e.getMessage());
            } catch (IllegalArgumentException e) {
                return notFetched(
                        media,
                        "malformed_result",
                        "the task succeeded, but image " + (media.size() + 1) + " is unreadable");
            }
        }
        return new Fetch.Fetched(new GenerationResult(media), cost(items));
    }

    /** Not in hand after all: the items fetched before the one that failed are dropped (a clip's file deleted). */
    private static Fetch.NotFetched notFetched(List<GenerationResult.Media> fetched, String code, String detail) {
        fetched.forEach(GenerationResult.Media::discard);
        return new Fetch.NotFetched(code, detail);
    }

    private GenerationResult.Media one(JsonNode item) throws MediaDownloader.DownloadException {
        Optional<String> clip = VendorJson.text(item, "videoURL");
        if (clip.isPresent()) {
            // a clip is streamed to disk before its URL expires, never held whole in memory
            return downloader.spool(URI.create(clip.get()), downloadTimeout);
        }
        Optional<String> base64 = VendorJson.text(item, "imageBase64Data");
        if (base64.isPresent()) {
            return inline(Base64.getMimeDecoder().decode(base64.get()));
        }
        Optional<String> dataUri = VendorJson.text(item, "imageDataURI");
        if (dataUri.isPresent()) {
            int comma = dataUri.get().indexOf(',');
            if (!dataUri.get().startsWith("data:") || comma < 0) {
                throw new IllegalArgumentException("not a data URI");
            }
            return inline(Base64.getMimeDecoder().decode(dataUri.get().substring(comma + 1)));
        }
        URI url = URI.create(VendorJson.text(item, "imageURL")
                .orElseThrow(() -> new IllegalArgumentException("no image in a success item")));
        return downloader.fetch(url, downloadTimeout);
    }

    private static GenerationResult.Media inline(byte[] bytes) {
        if (bytes.length == 0) {
            throw new IllegalArgumentException("empty image");
        }
        // Runware's default output is JPEG; the bytes say which it really is.
        return new GenerationResult.Media(bytes, ImageBytes.sniff(bytes).orElse("image/jpeg"));
    }

    /** Runware's own price ({@code includeCost}), when every item states one. */
    private static Optional<BigDecimal> cost(List<JsonNode> items) {
        BigDecimal total = BigDecimal.ZERO;
        for (JsonNode item : items) {
            JsonNode cost = item.path("cost");
            if (!cost.isNumber() || cost.decimalValue().signum() < 0) {
                return Optional.empty();
            }
            total = total.add(cost.decimalValue());
        }
        return Optional.of(total);
    }
}
