package io.idem.providers.replicate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Replicate vendor model id names, and so where a prediction is created (vendor-apis §4):
 * {@code owner/name} an official model ({@code POST /v1/models/{owner}/{name}/predictions}), {@code
 * owner/name:<version>} or a bare 64-hex version id a version ({@code POST /v1/predictions} with
 * {@code version}), {@code deployments/owner/name} a deployment.
 */
sealed interface ReplicateModel {

    record Official(String owner, String name) implements ReplicateModel {}

    /** {@code owner} and {@code name} are empty for a bare version id. */
    record Version(Optional<String> owner, Optional<String> name, String version) implements ReplicateModel {}

    record Deployment(String owner, String name) implements ReplicateModel {}

    Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    Pattern OFFICIAL = Pattern.compile("(" + SEGMENT + ")/(" + SEGMENT + ")");
    Pattern VERSIONED = Pattern.compile("(" + SEGMENT + ")/(" + SEGMENT + "):([0-9a-f]{64})");
    Pattern BARE_VERSION = Pattern.compile("[0-9a-f]{64}");
    Pattern DEPLOYMENT = Pattern.compile("deployments/(" + SEGMENT + ")/(" + SEGMENT + ")");

    static Optional<ReplicateModel> parse(String id) {
        if (id == null) {
            return Optional.empty();
        }
        Matcher m;
        if ((m = DEPLOYMENT.matcher(id)).matches()) {
            return Optional.of(new Deployment(m.group(1), m.group(2)));
        }
        if ((m = VERSIONED.matcher(id)).matches()) {
            return Optional.of(new Version(Optional.of(m.group(1)), Optional.of(m.group(2)), m.group(3)));
        }
        if (BARE_VERSION.matcher(id).matches()) {
            return Optional.of(new Version(Optional.empty(), Optional.empty(), id));
        }
        if ((m = OFFICIAL.matcher(id)).matches()) {
            return Optional.of(new Official(m.group(1), m.group(2)));
        }
        return Optional.empty();
    }

    /**
     * Whether a listed prediction ran this model. A deployment's predictions name the model behind
     * it, which we do not know, so any model matches a deployment.
     */
    default boolean ran(Prediction prediction) {
        return switch (this) {
            case Official official -> prediction.model().equals(official.owner() + "/" + official.name());
            case Version version -> prediction.version().equals(version.version());
            case Deployment deployment -> true;
        };
    }

    /** The create body's {@code version} field, for the models that need one. */
    default void addVersionTo(ObjectNode body) {
        if (this instanceof Version version) {
            body.put("version", version.version());
        }
    }
}
