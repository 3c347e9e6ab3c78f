package io.idem.providers.runware;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.providers.http.VendorJson;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The task arrays Runware's single endpoint takes (every request is a JSON array of tasks). */
final class RunwareTasks {
    private static final Pattern SIZE = Pattern.compile("(\\d{2,5})x(\\d{2,5})");

    private RunwareTasks() {}

    /** Width and height in pixels, from Idem's {@code WxH}. */
    record Size(int width, int height) {
        static final Size DEFAULT = new Size(1024, 1024);

        static Optional<Size> parse(String size) {
            if (size == null) {
                return Optional.of(DEFAULT);
            }
            Matcher m = SIZE.matcher(size.trim());
            return m.matches()
                    ? Optional.of(new Size(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))))
                    : Optional.empty();
        }
    }

    /**
     * One async image task under our own UUID: the answer is only an acknowledgement, the result is
     * polled with {@link #getResponse}. Images come back inline so no URL can expire on the way.
     */
    static byte[] imageInference(
            String taskUuid, String model, String prompt, Size size, int n, Optional<URI> webhook) {
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
