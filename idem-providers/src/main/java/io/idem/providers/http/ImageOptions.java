package io.idem.providers.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.ImageParams;
import java.io.IOException;

/** Puts an image call's {@code provider_options} into a vendor body: verbatim, never over a field Idem sets. */
public final class ImageOptions {
    private ImageOptions() {}

    /**
     * Every image parameter under OpenAI's own names ({@code quality}, {@code output_format} …),
     * then the provider options.
     */
    public static void underOpenAiNames(ObjectNode body, ImageParams image) {
        image.values().forEach((field, value) -> {
            if (!field.equals(ImageParams.PROVIDER_OPTIONS)) {
                body.set(field, VendorJson.MAPPER.valueToTree(value));
            }
        });
        passThrough(body, image);
    }

    /** Adds each of {@code image}'s provider options that {@code body} does not already carry. */
    public static void passThrough(ObjectNode body, ImageParams image) {
        image.providerOptions().ifPresent(json -> {
            JsonNode options;
            try {
                options = VendorJson.MAPPER.readTree(json);
            } catch (IOException e) {
                throw new IllegalStateException("provider_options were validated at intake", e);
            }
            options.fields().forEachRemaining(field -> {
                if (!body.has(field.getKey())) {
                    body.set(field.getKey(), field.getValue());
                }
            });
        });
    }
}
