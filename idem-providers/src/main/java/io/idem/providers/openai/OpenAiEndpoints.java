package io.idem.providers.openai;

import java.net.URI;

/** OpenAI's (or an OpenAI-compatible vendor's) URLs under a configured base URL such as {@code …/v1}. */
record OpenAiEndpoints(String base) {

    static OpenAiEndpoints of(URI baseUrl) {
        String text = baseUrl.toString();
        while (text.endsWith("/")) {
            text = text.substring(0, text.length() - 1);
        }
        return new OpenAiEndpoints(text);
    }

    URI generations() {
        return URI.create(base + "/images/generations");
    }

    /** A cheap, non-billable authenticated GET, used as the health probe. */
    URI models() {
        return URI.create(base + "/models");
    }
}
