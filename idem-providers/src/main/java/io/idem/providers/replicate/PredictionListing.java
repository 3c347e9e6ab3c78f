package io.idem.providers.replicate;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Replicate's prediction list ({@code GET /v1/predictions?created_after&created_before}, newest
 * first, 100 a page): finds the prediction a lost create answer would have named, by model and
 * input. Replicate keeps API inputs for about an hour; after that a prediction of our model whose
 * input is gone could be ours, and the search says so. Thread-safe.
 */
final class PredictionListing {
    static final int MAX_PAGES = 10;

    private final ReplicateApi api;

    PredictionListing(ReplicateApi api) {
        this.api = api;
    }

    /** What a search found. */
    sealed interface Search {
        record Found(Prediction prediction) implements Search {}

        /** Nothing matches; {@code inputsRemoved}: some prediction of the model could not be compared. */
        record None(boolean inputsRemoved) implements Search {}

        record Ambiguous(int count) implements Search {}

        record Failed(String detail) implements Search {}
    }

    Search find(Instant createdAfter, Instant createdBefore, ReplicateModel model, Predicate<Prediction> ours) {
        List<Prediction> matches = new ArrayList<>();
        boolean inputsRemoved = false;
        URI page = api.endpoints().list(createdAfter, createdBefore);
        for (int n = 0; n < MAX_PAGES; n++) {
            VendorExchange exchange = api.get(page, VendorCalls.LOOKUP_TIMEOUT);
            if (!(exchange instanceof VendorExchange.Answered answered)) {
                return new Search.Failed("listing failed: " + ((VendorExchange.Failed) exchange).detail());
            }
            Optional<JsonNode> root = VendorJson.parse(answered.response().body())
                    .filter(r -> answered.response().statusCode() == 200)
                    .filter(r -> r.path("results").isArray());
            if (root.isEmpty()) {
                return new Search.Failed(
                        "listing answered HTTP " + answered.response().statusCode());
            }
            for (JsonNode item : root.get().path("results")) {
                Optional<Prediction> prediction = Prediction.read(item).filter(model::ran);
                if (prediction.isEmpty()) {
                    continue;
                }
                inputsRemoved |= prediction.get().dataRemoved();
                if (ours.test(prediction.get())) {
                    matches.add(prediction.get());
                }
            }
            Optional<URI> next = api.endpoints().vendor(VendorJson.text(root.get(), "next"));
            if (next.isEmpty()) {
                return switch (matches.size()) {
                    case 0 -> new Search.None(inputsRemoved);
                    case 1 -> new Search.Found(matches.getFirst());
                    default -> new Search.Ambiguous(matches.size());
                };
            }
            page = next.get();
        }
        return new Search.Failed("listing gave more than " + MAX_PAGES + " pages; narrow it by hand");
    }
}
