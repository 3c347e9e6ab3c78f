package io.idem.providers.fake;

import io.idem.providers.http.VendorCalls;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** The fake vendor's URLs under a configured base URL (which may carry a path prefix). */
record FakeEndpoints(String base) {

    static FakeEndpoints of(URI baseUrl) {
        return new FakeEndpoints(VendorCalls.trimmedBase(baseUrl));
    }

    URI health() {
        return URI.create(base + "/health");
    }

    URI generations() {
        return URI.create(base + VendorRoutes.GENERATIONS);
    }

    URI edits() {
        return URI.create(base + VendorRoutes.EDITS);
    }

    /** One generation, under the path of its kind (a video's id starts {@code video_}). */
    URI generation(String id) {
        return URI.create(base + collection(id) + "/" + segment(id));
    }

    URI cancel(String id) {
        return URI.create(base + collection(id) + "/" + segment(id) + "/cancel");
    }

    URI videos() {
        return URI.create(base + VendorRoutes.VIDEOS);
    }

    URI videoContent(String id) {
        return URI.create(base + VendorRoutes.VIDEOS + "/" + segment(id) + "/content");
    }

    private static String collection(String id) {
        return id.startsWith("video_") ? VendorRoutes.VIDEOS : VendorRoutes.GENERATIONS;
    }

    URI usage(java.time.LocalDate day) {
        return URI.create(base + VendorRoutes.USAGE + "?date=" + day);
    }

    /** The generation filed under our reference, of either kind (the vendor keeps one book). */
    URI byReference(String reference) {
        return URI.create(
                base + VendorRoutes.GENERATIONS + "?reference=" + URLEncoder.encode(reference, StandardCharsets.UTF_8));
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
