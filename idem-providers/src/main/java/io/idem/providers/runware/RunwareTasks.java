package io.idem.providers.runware;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.ImageParams;
import io.idem.providers.http.ImageOptions;
import io.idem.providers.http.ImageSize;
import io.idem.providers.http.VendorJson;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** The task arrays Runware's single endpoint takes (every request is a JSON array of tasks). */
final class RunwareTasks {
    /** The size Runware is asked for when the call names none. */
    static final ImageSize DEFAULT_SIZE = new ImageSize(1024, 1024);

    /** The image parameters an {@code imageInference} task takes, and provider options as they are. */
    static final Set<String> PARAMETERS =
            Set.of(ImageParams.OUTPUT_FORMAT, ImageParams.OUTPUT_COMPRESSION, ImageParams.PROVIDER_OPTIONS);

    private RunwareTasks() {}

    /** The call's size, blanks around it ignored; {@link #DEFAULT_SIZE} for none; empty if unreadable. */
    static Optional<ImageSize> size(String size) {
        return size == null ? Optional.of(DEFAULT_SIZE) : ImageSize.parse(size.trim());
    }

    /**
     * One async image task under our own UUID: the answer is only an acknowledgement, the result is
     * polled with {@link #getResponse}. Images come back inline so no URL can expire on the way.
     */
    static byte[] imageInference(
            String taskUuid,
            String model,
            String prompt,
            ImageSize size,
            int n,
            Optional<URI> webhook,
            ImageParams image) {
        ObjectNode task = VendorJson.MAPPER
                .createObjectNode()
                .put("taskType", "imageInference")
                .put("taskUUID", taskUuid)
                .put("positivePrompt", prompt)
                .put("model", model)
                .put("width", size.width())
                .put("height", size.height())
                .put("numberResults", n)
                .put("outputType", "base64Data")
                .put("deliveryMethod", "async")
                .put("includeCost", true);
        webhook.ifPresent(url -> task.put("webhookURL", url.toString()));
        // Runware's names: outputFormat PNG|JPG|WEBP, outputQuality (it takes 20..99)
        image.outputFormat()
                .ifPresent(format ->
                        task.put("outputFormat", format.equals("jpeg") ? "JPG" : format.toUpperCase(Locale.ROOT)));
        image.outputCompression().ifPresent(quality -> task.put("outputQuality", Math.clamp(quality, 20, 99)));
        ImageOptions.passThrough(task, image);
        return array(task);
    }

    static byte[] getResponse(String taskUuid) {
        return array(VendorJson.MAPPER
                .createObjectNode()
                .put("taskType", "getResponse")
                .put("taskUUID", taskUuid));
    }

    static byte[] ping() {
        return array(
                VendorJson.MAPPER.createObjectNode().put("taskType", "ping").put("ping", true));
    }

    private static byte[] array(ObjectNode task) {
        ArrayNode tasks = VendorJson.MAPPER.createArrayNode().add(task);
        return tasks.toString().getBytes(StandardCharsets.UTF_8);
    }
}
