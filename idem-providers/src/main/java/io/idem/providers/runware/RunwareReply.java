package io.idem.providers.runware;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.http.VendorJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A Runware answer body: {@code data} items and {@code errors}, either possibly empty. */
record RunwareReply(List<JsonNode> items, List<RunwareError> errors) {
    RunwareReply {
        items = List.copyOf(items);
        errors = List.copyOf(errors);
    }

    static Optional<RunwareReply> parse(byte[] body) {
        return VendorJson.parse(body).map(root -> {
            List<JsonNode> items = new ArrayList<>();
            root.path("data").forEach(item -> {
                if (item.isObject()) {
                    items.add(item);
                }
            });
            List<RunwareError> errors = new ArrayList<>();
            root.path("errors").forEach(error -> {
                if (error.isObject()) {
                    errors.add(RunwareError.of(error));
                }
            });
            return new RunwareReply(items, errors);
        });
    }

    /** The items about {@code task} (an item without a task UUID is taken to be ours: we send one task). */
    List<JsonNode> itemsOf(String task) {
        return items.stream()
                .filter(item ->
                        VendorJson.text(item, "taskUUID").map(task::equals).orElse(true))
                .toList();
    }

    Optional<RunwareError> firstError() {
        return errors.stream().findFirst();
    }
}
