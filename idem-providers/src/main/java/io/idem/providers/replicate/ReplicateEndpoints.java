package io.idem.providers.replicate;

import io.idem.providers.http.VendorJson;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Replicate's URLs under {@code base_url} (default {@code https://api.replicate.com}; the host root,
 * without {@code /v1}). Prediction ids are checked before they go into a path, and URLs Replicate
 * returns are followed only on the configured host: our token never goes anywhere else.
 */
final class ReplicateEndpoints {
    static final URI DEFAULT_BASE = URI.create("https://api.replicate.com");

    private static final Pattern PREDICTION_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,127}");

    private final URI base;
    private final String root;

    private ReplicateEndpoints(URI base, String root) {
        this.base = base;
        this.root = root;
    }

    static ReplicateEndpoints of(URI baseUrl) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        String text = baseUrl.toString();
        return new ReplicateEndpoints(baseUrl, text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
    }

    static boolean validPredictionId(String id) {
        return id != null && PREDICTION_ID.matcher(id).matches();
    }

    URI create(ReplicateModel model) {
        return URI.create(
                switch (model) {
                    case ReplicateModel.Official m ->
                        root + "/v1/models/" + m.owner() + "/" + m.name() + "/predictions";
                    case ReplicateModel.Version v -> root + "/v1/predictions";
                    case ReplicateModel.Deployment d ->
                        root + "/v1/deployments/" + d.owner() + "/" + d.name() + "/predictions";
                });
    }

    URI prediction(String id) {
        return URI.create(root + "/v1/predictions/" + checked(id));
    }

    URI cancel(String id) {
        return URI.create(root + "/v1/predictions/" + checked(id) + "/cancel");
    }

    URI list(Instant createdAfter, Instant createdBefore) {
        return URI.create(root + "/v1/predictions?created_after=" + encode(createdAfter.toString()) + "&created_before="
                + encode(createdBefore.toString()));
    }

    /** A URL Replicate returned, if it points at the configured host. */
    Optional<URI> vendor(Optional<String> returned) {
        return returned.flatMap(VendorJson::uri).filter(this::sameOrigin);
    }

    private boolean sameOrigin(URI uri) {
        return Objects.equals(uri.getScheme(), base.getScheme())
                && uri.getHost() != null
                && uri.getHost().equalsIgnoreCase(base.getHost())
                && uri.getPort() == base.getPort();
    }

    private static String checked(String id) {
        if (!validPredictionId(id)) {
            throw new IllegalArgumentException("not a Replicate prediction id");
        }
        return id;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
