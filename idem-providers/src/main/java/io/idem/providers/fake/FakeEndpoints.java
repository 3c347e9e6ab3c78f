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

    URI generation(String id) {
        return URI.create(base + VendorRoutes.GENERATIONS + "/" + segment(id));
    }

    URI cancel(String id) {
        return URI.create(base + VendorRoutes.GENERATIONS + "/" + segment(id) + "/cancel");
    }

    URI usage(java.time.LocalDate day) {
        return URI.create(base + VendorRoutes.USAGE + "?date=" + day);
    }

    URI byReference(String reference) {
        return URI.create(
                base + VendorRoutes.GENERATIONS + "?reference=" + URLEncoder.encode(reference, StandardCharsets.UTF_8));
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
