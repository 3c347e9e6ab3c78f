package io.idem.server.models;

import io.idem.core.provider.Capabilities;
import io.idem.server.http.ApiError;
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Feature;
import io.idem.server.http.Json;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /v1/models} and {@code GET /v1/models/{id}} in OpenAI's shape: the chat and job models
 * the calling key may use, with Idem's own fields (providers, lanes, capabilities) under {@code
 * idem}. An id the key may not use is {@code 404 model_not_found}.
 */
public final class ModelsApi implements Feature {
    private static final int MAX_ECHOED = 128;
    private final Auth auth;
    private final ModelCatalog catalog;
    private final long created;

    /** {@code created}: the Unix time every model reports (the node's start). */
    public ModelsApi(Auth auth, ModelCatalog catalog, long created) {
        this.auth = auth;
        this.catalog = catalog;
        this.created = created;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.get("/v1/models", this::list);
        config.routes.get("/v1/models/<id>", this::one);
    }

    private void list(Context ctx) {
        Caller caller = auth.require(ctx);
        List<Map<String, Object>> data = new ArrayList<>();
        catalog.visibleTo(caller.key().jurisdiction()).forEach(m -> data.add(wire(m)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "list");
        body.put("data", data);
        Json.write(ctx, body);
    }

    private void one(Context ctx) {
        Caller caller = auth.require(ctx);
        String id = ctx.pathParam("id");
        ModelCatalog.Model model = catalog.find(id, caller.key().jurisdiction())
                .orElseThrow(() -> new ApiError(
                        404,
                        "model_not_found",
                        "model '" + (id.length() > MAX_ECHOED ? id.substring(0, MAX_ECHOED) + "…" : id)
                                + "' does not exist or this key may not use it"));
        Json.write(ctx, wire(model));
    }

    private Map<String, Object> wire(ModelCatalog.Model model) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", model.id());
        out.put("object", "model");
        out.put("created", created);
        out.put("owned_by", model.offers().getFirst().provider());
        List<String> kinds = model.offers().stream()
                .flatMap(o -> o.kinds().stream())
                .distinct()
                .toList();
        List<Map<String, Object>> providers = new ArrayList<>();
        model.offers().forEach(o -> providers.add(offer(o)));
        out.put("idem", Map.of("kinds", kinds, "providers", providers));
        return out;
    }

    private static Map<String, Object> offer(ModelCatalog.Offer offer) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("provider", offer.provider());
        out.put("adapter", offer.adapter());
        out.put("vendor_model", offer.vendorModel());
        out.put("lanes", offer.lanes());
        out.put("capabilities", capabilities(offer.kinds(), offer.capabilities()));
        return out;
    }

    private static Map<String, Object> capabilities(List<String> kinds, Optional<Capabilities> job) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kinds", kinds);
        job.ifPresent(c -> {
            out.put("sizes", new java.util.TreeSet<>(c.sizes()));
            out.put("max_width", c.maxWidth() == 0 ? null : c.maxWidth());
            out.put("max_height", c.maxHeight() == 0 ? null : c.maxHeight());
            out.put("max_n", c.maxN());
            out.put("jurisdictions", new java.util.TreeSet<>(c.jurisdictions()));
            out.put("cancel", c.cancel());
        });
        if (job.isEmpty()) {
            out.put("stream", true);
        }
        return out;
    }
}
