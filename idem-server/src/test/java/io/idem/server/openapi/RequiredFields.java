package io.idem.server.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The top-level fields a (fully resolved) schema requires, and what of them a JSON body lacks. */
final class RequiredFields {
    private RequiredFields() {}

    /** What {@code body} lacks of every way {@code schema} accepts it; empty when one way is met. */
    static Optional<String> missing(Schema<?> schema, JsonNode body) {
        if (body == null || !body.isObject()) {
            return Optional.of("the body is not a JSON object");
        }
        List<Set<String>> missing = new ArrayList<>();
        for (Set<String> required : sets(schema)) {
            Set<String> absent = new HashSet<>(required);
            absent.removeIf(body::has);
            if (absent.isEmpty()) {
                return Optional.empty();
            }
            missing.add(absent);
        }
        return Optional.of("required top-level fields missing: " + missing);
    }

    /** The sets of required top-level fields the schema accepts (one per {@code oneOf} branch). */
    @SuppressWarnings("rawtypes")
    static List<Set<String>> sets(Schema<?> schema) {
        List<Schema> branches = schema.getOneOf() != null ? schema.getOneOf() : schema.getAnyOf();
        if (branches != null) {
            List<Set<String>> out = new ArrayList<>();
            branches.forEach(branch -> out.addAll(sets(branch)));
            return out;
        }
        Set<String> required = new HashSet<>(schema.getRequired() == null ? List.of() : schema.getRequired());
        if (schema.getAllOf() != null) {
            schema.getAllOf().forEach(part -> required.addAll(sets(part).getFirst()));
        }
        return List.of(required);
    }
}
