package io.idem.providers.openai;

import io.idem.providers.http.VendorCalls;
import java.net.URI;

/** OpenAI's (or an OpenAI-compatible vendor's) URLs under a configured base URL such as {@code …/v1}. */
record OpenAiEndpoints(String base) {

    static OpenAiEndpoints of(URI baseUrl) {
        return new OpenAiEndpoints(VendorCalls.trimmedBase(baseUrl));
    }

    URI generations() {
        return URI.create(base + "/images/generations");
    }

    /** Where an edit goes (multipart: the images, the mask, the fields). */
    URI edits() {
        return URI.create(base + "/images/edits");
    }

    /** A cheap, non-billable authenticated GET, used as the health probe. */
    URI models() {
        return URI.create(base + "/models");
    }
}
