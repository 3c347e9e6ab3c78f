package io.idem.providers.openai;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.http.ImageBytes;
import io.idem.providers.http.VendorJson;
import java.net.URI;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a {@code 200} from {@code /images/generations} holds: each image inline ({@code b64_json}:
 * GPT image models always, dall-e on request) or as an expiring URL (dall-e's default), or nothing
 * readable at all.
 */
sealed interface OpenAiImagesReply {

    /** Every image the vendor delivered, in order. */
    record Delivered(List<Item> items) implements OpenAiImagesReply {
        public Delivered {
            items = List.copyOf(items);
        }
    }

    /** A 200 we cannot read an image from; {@code why} is safe to record. */
    record Unreadable(String why) implements OpenAiImagesReply {}

    /** One delivered image. */
    sealed interface Item {
        record Inline(byte[] bytes, String mimeType) implements Item {}

        record Remote(URI url) implements Item {}
    }

    static OpenAiImagesReply read(byte[] body) {
        Optional<JsonNode> root = VendorJson.parse(body);
        if (root.isEmpty()) {
            return new Unreadable("200 with an unreadable body");
        }
        JsonNode data = root.get().path("data");
        if (!data.isArray() || data.isEmpty()) {
            return new Unreadable("200 without any image in 'data'");
        }
        String declared = VendorJson.text(root.get(), "output_format")
                .map(format -> "image/" + format.toLowerCase(Locale.ROOT).replace("jpg", "jpeg"))
                .orElse("image/png");
        List<Item> items = new ArrayList<>();
        for (JsonNode image : data) {
            Optional<Item> item = item(image, declared);
            if (item.isEmpty()) {
                return new Unreadable("200 with image " + (items.size() + 1) + " neither valid base64 nor a URL");
            }
            items.add(item.get());
        }
        return new Delivered(items);
    }

    private static Optional<Item> item(JsonNode image, String declared) {
        Optional<String> inline = VendorJson.text(image, "b64_json");
        if (inline.isPresent()) {
            try {
                byte[] bytes = Base64.getMimeDecoder().decode(inline.get());
                return bytes.length == 0
                        ? Optional.empty()
                        : Optional.of(
                                new Item.Inline(bytes, ImageBytes.sniff(bytes).orElse(declared)));
            } catch (IllegalArgumentException notBase64) {
                return Optional.empty();
            }
        }
        return VendorJson.text(image, "url").flatMap(OpenAiImagesReply::uri).map(Item.Remote::new);
    }

    private static Optional<URI> uri(String text) {
        try {
            URI url = URI.create(text);
            return url.isAbsolute() ? Optional.of(url) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
