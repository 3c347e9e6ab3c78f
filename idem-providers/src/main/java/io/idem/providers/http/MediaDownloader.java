package io.idem.providers.http;

import io.idem.core.outcome.GenerationResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Fetches a delivered file from a vendor's (expiring) URL so Idem keeps its own copy. Refuses
 * anything that is not an image or video, anything over the size limit, and non-200 answers.
 * Thread-safe.
 */
public final class MediaDownloader {
    /** The default ceiling for one file. */
    public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

    private static final Set<String> TYPES =
            Set.of("image/png", "image/jpeg", "image/webp", "image/svg+xml", "image/gif", "video/mp4");

    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

    private final HttpClient client;
    private final long maxBytes;

    public MediaDownloader(HttpClient client, long maxBytes) {
        this.client = client;
        this.maxBytes = maxBytes;
    }

    /** Why a download failed; the message never carries the (signed, possibly secret) URL's query. */
    public static final class DownloadException extends Exception {
        public DownloadException(String message) {
            super(message);
        }
    }

    /** Every file, in order, each under {@code timeout}; the first that fails stops the rest. */
    public List<GenerationResult.Media> fetchAll(List<URI> urls, Duration timeout) throws DownloadException {
        List<GenerationResult.Media> media = new ArrayList<>();
        for (URI url : urls) {
            media.add(fetch(url, timeout));
        }
        return media;
    }

    public GenerationResult.Media fetch(URI url, Duration timeout) throws DownloadException {
        return download(url, timeout, Map.of(), this::inMemory);
    }

    /**
     * As {@link #fetch}, but streamed to a temporary file as it arrives, never held whole in memory
     * (for video); the asset store takes the file over. A failed download leaves no file behind.
     */
    public GenerationResult.Media spool(URI url, Duration timeout) throws DownloadException {
        return spool(url, timeout, Map.of());
    }

    /**
     * As {@link #spool(URI, Duration)}, for a host that wants its key on the download ({@code
     * headers}) and may answer with a redirect to where the file is kept: one redirect is followed,
     * without the headers, so the key never goes to another host.
     */
    public GenerationResult.Media spool(URI url, Duration timeout, Map<String, String> headers)
            throws DownloadException {
        return download(url, timeout, headers, this::toFile);
    }

    /**
     * A file whose kind only its host knows: a video (by its {@code Content-Type}) is spooled to disk
     * as {@link #spool} does, an image is held in memory as {@link #fetch} does.
     */
    public GenerationResult.Media receive(URI url, Duration timeout) throws DownloadException {
        return download(
                url,
                timeout,
                Map.of(),
                (body, type) -> type.startsWith("video/") ? toFile(body, type) : inMemory(body, type));
    }

    private GenerationResult.Media inMemory(InputStream body, String type) throws IOException, DownloadException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        copyCapped(body, out);
        return new GenerationResult.Media(out.toByteArray(), type);
    }

    private GenerationResult.Media toFile(InputStream body, String type) throws IOException, DownloadException {
        Path file = Files.createTempFile("idem-media-", ".part");
        try (OutputStream out = Files.newOutputStream(file)) {
            copyCapped(body, out);
            return GenerationResult.Media.spooled(file, type);
        } catch (IOException | DownloadException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    @FunctionalInterface
    private interface Sink {
        GenerationResult.Media take(InputStream body, String type) throws IOException, DownloadException;
    }

    private GenerationResult.Media download(URI url, Duration timeout, Map<String, String> headers, Sink sink)
            throws DownloadException {
        HttpResponse<InputStream> response = open(url, timeout, headers);
        if (!headers.isEmpty() && REDIRECTS.contains(response.statusCode())) {
            Optional<String> location = response.headers().firstValue("Location");
            close(response);
            if (location.isEmpty()) {
                throw new DownloadException("media host " + url.getHost() + " redirected without a Location");
            }
            return download(url.resolve(location.get()), timeout, Map.of(), sink);
        }
        return take(url, response, sink);
    }

    private static void close(HttpResponse<InputStream> response) {
        try {
            response.body().close();
        } catch (IOException e) {
            // nothing was read from it: nothing to lose
        }
    }

    private HttpResponse<InputStream> open(URI url, Duration timeout, Map<String, String> headers)
            throws DownloadException {
        if (!"https".equals(url.getScheme()) && !"http".equals(url.getScheme())) {
            throw new DownloadException("refusing a media URL with scheme '" + url.getScheme() + "'");
        }
        HttpRequest.Builder builder =
                HttpRequest.newBuilder(url).timeout(timeout).GET();
        headers.forEach(builder::header);
        HttpRequest request = builder.build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new DownloadException("could not fetch media from " + url.getHost() + ": "
                    + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DownloadException("interrupted while fetching media");
        }
    }

    private GenerationResult.Media take(URI url, HttpResponse<InputStream> response, Sink sink)
            throws DownloadException {
        try (InputStream body = response.body()) {
            if (response.statusCode() != 200) {
                throw new DownloadException("media host " + url.getHost() + " answered " + response.statusCode());
            }
            String type = response.headers()
                    .firstValue("Content-Type")
                    .orElse("")
                    .split(";")[0]
                    .trim()
                    .toLowerCase(Locale.ROOT);
            if (!TYPES.contains(type)) {
                throw new DownloadException("refusing media of type '" + type + "'");
            }
            long declared =
                    response.headers().firstValueAsLong("Content-Length").orElse(-1);
            if (declared > maxBytes) {
                throw new DownloadException("refusing media of " + declared + " bytes (limit " + maxBytes + ")");
            }
            return sink.take(body, type);
        } catch (IOException e) {
            throw new DownloadException("media download from " + url.getHost() + " broke off: "
                    + e.getClass().getSimpleName());
        }
    }

    private void copyCapped(InputStream body, OutputStream out) throws IOException, DownloadException {
        byte[] buffer = new byte[16 * 1024];
        long total = 0;
        int read;
        while ((read = body.read(buffer)) != -1) {
            total += read;
            if (total > maxBytes) {
                throw new DownloadException("refusing media over " + maxBytes + " bytes");
            }
            out.write(buffer, 0, read);
        }
    }
}
