package io.idem.providers.fal;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * fal's URLs: the queue API under {@code base_url} (default {@code https://queue.fal.run}) and the
 * platform API's request history and usage listing (at {@code https://api.fal.ai} when {@code base_url} is fal's own
 * queue host, else under {@code base_url} too, so one proxy or test stub can serve both).
 *
 * <p>Endpoint and request ids are checked before they go into a path: both come from config, the
 * vendor or the database, and none may steer a request (with our key) somewhere else.
 */
final class FalEndpoints {
    static final URI DEFAULT_BASE = URI.create("https://queue.fal.run");
    static final URI DEFAULT_PLATFORM = URI.create("https://api.fal.ai");

    private static final Pattern ENDPOINT_ID =
            Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)+");
    private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,127}");

    private final URI base;
    private final String queue;
    private final String platform;

    private FalEndpoints(URI base, String queue, String platform) {
        this.base = base;
        this.queue = queue;
        this.platform = platform;
    }

    static FalEndpoints of(URI baseUrl) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        String queue = trimmed(baseUrl);
        String platform =
                DEFAULT_BASE.getHost().equalsIgnoreCase(baseUrl.getHost()) ? trimmed(DEFAULT_PLATFORM) : queue;
        return new FalEndpoints(baseUrl, queue, platform);
    }

    /** Whether {@code id} is a fal endpoint id like {@code fal-ai/flux/dev}. */
    static boolean validEndpoint(String id) {
        return id != null && ENDPOINT_ID.matcher(id).matches();
    }

    static boolean validRequestId(String id) {
        return id != null && REQUEST_ID.matcher(id).matches();
    }

    /** Status, result and cancel live under the app root {@code owner/app}, without a sub-path. */
    static String appRoot(String endpointId) {
        String[] parts = endpointId.split("/");
        return parts[0] + "/" + parts[1];
    }

    URI submit(String endpointId, Optional<URI> webhook) {
        String query =
                webhook.map(url -> "?fal_webhook=" + encode(url.toString())).orElse("");
        return URI.create(queue + "/" + endpointId + query);
    }

    URI status(String endpointId, String requestId) {
        return URI.create(request(endpointId, requestId) + "/status");
    }

    URI result(String endpointId, String requestId) {
        return URI.create(request(endpointId, requestId));
    }

    URI cancel(String endpointId, String requestId) {
        return URI.create(request(endpointId, requestId) + "/cancel");
    }

    /** The platform API's request history of one endpoint, with payloads. */
    URI history(String endpointId, Instant start, Instant end, Optional<String> requestId, Optional<String> cursor) {
        StringBuilder url = new StringBuilder(platform)
                .append("/v1/models/requests/by-endpoint?endpoint_id=")
                .append(encode(endpointId))
                .append("&start=")
                .append(encode(start.toString()))
                .append("&end=")
                .append(encode(end.toString()))
                .append("&expand=payloads&limit=100");
        requestId.ifPresent(id -> url.append("&request_id=").append(encode(id)));
        cursor.ifPresent(c -> url.append("&cursor=").append(encode(c)));
        return URI.create(url.toString());
    }

    /**
     * The platform API's successful requests of one endpoint in {@code [start, end]}, with payloads
     * (the output names how many images each request delivered), for the invoice check.
     */
    URI billed(String endpointId, Instant start, Instant end, Optional<String> cursor) {
        StringBuilder url = new StringBuilder(platform)
                .append("/v1/models/requests/by-endpoint?endpoint_id=")
                .append(encode(endpointId))
                .append("&start=")
                .append(encode(start.toString()))
                .append("&end=")
                .append(encode(end.toString()))
                .append("&status=success&expand=payloads&limit=100");
        cursor.ifPresent(c -> url.append("&cursor=").append(encode(c)));
        return URI.create(url.toString());
    }

    /**
     * A URL fal returned (status_url, response_url), used as is only when it points at the host we
     * were configured with; otherwise the one we build. Our key never follows a foreign URL.
     */
    URI vendorOr(Optional<String> returned, URI built) {
        return returned.flatMap(FalEndpoints::uri).filter(this::sameOrigin).orElse(built);
    }

    private boolean sameOrigin(URI uri) {
        return Objects.equals(uri.getScheme(), base.getScheme())
                && uri.getHost() != null
                && uri.getHost().equalsIgnoreCase(base.getHost())
                && uri.getPort() == base.getPort();
    }

    private String request(String endpointId, String requestId) {
        if (!validRequestId(requestId)) {
            throw new IllegalArgumentException("not a fal request id");
        }
        return queue + "/" + appRoot(endpointId) + "/requests/" + requestId;
    }

    private static Optional<URI> uri(String text) {
        try {
            return Optional.of(URI.create(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String trimmed(URI uri) {
        String text = uri.toString();
        return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
