package io.idem.providers.openai;

import io.idem.providers.http.MediaDownloader;
import java.time.Duration;
import java.util.Objects;

/**
 * The adapter's own limits, fixed in production and shortened by tests.
 *
 * @param promptRefusal a 503 that arrives within this long is a refusal at the door (nothing ran);
 *     a slower one may have followed real work, so it is unconfirmed (vendor-apis.md §1)
 * @param downloadTimeout how long fetching one delivered image URL may take; generous, because the
 *     image is already paid for
 * @param maxDownloadBytes the largest image accepted from a URL
 */
record OpenAiTuning(Duration promptRefusal, Duration downloadTimeout, long maxDownloadBytes) {
    static final OpenAiTuning DEFAULTS =
            new OpenAiTuning(Duration.ofSeconds(5), Duration.ofSeconds(60), MediaDownloader.DEFAULT_MAX_BYTES);

    OpenAiTuning {
        Objects.requireNonNull(promptRefusal, "promptRefusal");
        Objects.requireNonNull(downloadTimeout, "downloadTimeout");
        if (maxDownloadBytes <= 0) {
            throw new IllegalArgumentException("maxDownloadBytes must be positive, was " + maxDownloadBytes);
        }
    }
}
