package io.idem.providers.fake;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.pricing.PricingModel;
import io.idem.core.pricing.Usage;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.Credential;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;

/**
 * Asks the fake vendor about an earlier call: what became of it (reconcile) and whether it can still
 * be stopped (cancel). Lookups are GETs and cancels are idempotent, so neither can bill. Thread-safe.
 */
final class FakeFollowUp {
    private final VendorCalls calls;
    private final FakeEndpoints endpoints;
    private final PricingModel pricing;
    private final FakeVideoCalls videos;

    FakeFollowUp(VendorCalls calls, FakeEndpoints endpoints, PricingModel pricing, FakeVideoCalls videos) {
        this.calls = calls;
        this.endpoints = endpoints;
        this.pricing = pricing;
        this.videos = videos;
    }

    ReconcileAnswer reconcile(AttemptRef attempt) {
        if (calls.credential() instanceof Credential.Missing missing) {
            return new ReconcileAnswer.StillUnknown("cannot ask the vendor: " + missing.reason());
        }
        if (attempt.providerRequestId().isPresent()) {
            VendorExchange byId =
                    get(endpoints.generation(attempt.providerRequestId().get()));
            // A 404 for an id the vendor itself gave us is odd; the reference is the better witness.
            if (!(byId instanceof VendorExchange.Answered answered
                    && answered.response().statusCode() == 404)) {
                return reconciled(byId, attempt);
            }
        }
        VendorExchange byReference = get(endpoints.byReference(attempt.reference()));
        if (byReference instanceof VendorExchange.Answered answered
                && answered.response().statusCode() == 404) {
            return new ReconcileAnswer.NotBilled("the vendor never received reference " + attempt.reference());
        }
        return reconciled(byReference, attempt);
    }

    private ReconcileAnswer reconciled(VendorExchange exchange, AttemptRef attempt) {
        return switch (exchange) {
            case VendorExchange.Failed failed -> new ReconcileAnswer.StillUnknown("lookup failed: " + failed.detail());
            case VendorExchange.Answered answered -> {
                HttpResponse<byte[]> response = answered.response();
                Optional<JsonNode> root = VendorJson.parse(response.body());
                if (response.statusCode() != 200 || root.isEmpty()) {
                    yield new ReconcileAnswer.StillUnknown("lookup answered HTTP " + response.statusCode());
                }
                yield fromStatus(root.get(), attempt);
            }
        };
    }

    private ReconcileAnswer fromStatus(JsonNode generation, AttemptRef attempt) {
        String id = VendorJson.text(generation, "id")
                .orElse(attempt.providerRequestId().orElse(null));
        boolean billed = generation.path("billed").asBoolean(false);
        String status = VendorJson.text(generation, "status").orElse("(none)");
        return switch (status) {
            case "succeeded" -> {
                if ("video".equals(generation.path("kind").asText())) {
                    yield videoDelivered(id, generation);
                }
                Optional<GenerationResult> result = FakeGenerationJson.images(generation);
                if (result.isEmpty()) {
                    yield new ReconcileAnswer.StillUnknown("vendor reports " + id + " succeeded but shows no image");
                }
                BigDecimal cost = FakeGenerationJson.cost(generation)
                        .orElseGet(() ->
                                pricing.cost(Usage.images(result.get().media().size())));
                yield new ReconcileAnswer.Delivered(new Outcome.Confirmed(result.get(), 200, id, cost));
            }
            case "failed", "canceled" ->
                billed
                        ? new ReconcileAnswer.Failed("vendor reports " + id + " " + status + " and billed", true)
                        : new ReconcileAnswer.NotBilled("vendor reports " + id + " " + status + ", not billed");
            case "running" -> new ReconcileAnswer.StillUnknown("vendor reports " + id + " still running");
            case "rejected_policy" ->
                new ReconcileAnswer.Rejected(
                        RejectionKind.POLICY,
                        "content_policy_violation",
                        "vendor reports " + id + " refused by policy");
            case "rejected_input" ->
                new ReconcileAnswer.Rejected(
                        RejectionKind.USER_ERROR,
                        "invalid_request",
                        "vendor reports " + id + " refused as invalid input");
            default -> new ReconcileAnswer.StillUnknown("vendor reports " + id + " in unknown status " + status);
        };
    }

    /** A finished video: its clip fetched from the vendor. */
    private ReconcileAnswer videoDelivered(String id, JsonNode generation) {
        return videos.delivered(id, generation)
                .<ReconcileAnswer>map(result ->
                        new ReconcileAnswer.Delivered(new Outcome.Confirmed(result, 200, id, videos.cost(generation))))
                .orElseGet(() -> new ReconcileAnswer.StillUnknown(
                        "vendor reports video " + id + " succeeded but its file could not be read"));
    }

    CancelAnswer cancel(AttemptRef attempt) {
        if (calls.credential() instanceof Credential.Missing missing) {
            return new CancelAnswer.Unclear("cannot ask the vendor: " + missing.reason());
        }
        return switch (target(attempt)) {
            case Target.NotFound notFound -> notFound.answer();
            case Target.Found found -> {
                HttpRequest.Builder request = VendorCalls.lookup(
                                endpoints.cancel(found.id()), VendorCalls.LOOKUP_TIMEOUT)
                        .POST(HttpRequest.BodyPublishers.noBody());
                yield switch (calls.ask(request)) {
                    case VendorExchange.Failed failed -> new CancelAnswer.Unclear("cancel failed: " + failed.detail());
                    case VendorExchange.Answered answered -> canceled(answered.response(), found.id());
                };
            }
        };
    }

    /** The vendor id to cancel: the one we hold, else the one the vendor files under our reference. */
    private sealed interface Target {
        record Found(String id) implements Target {}

        record NotFound(CancelAnswer answer) implements Target {}
    }

    private Target target(AttemptRef attempt) {
        if (attempt.providerRequestId().isPresent()) {
            return new Target.Found(attempt.providerRequestId().get());
        }
        return switch (get(endpoints.byReference(attempt.reference()))) {
            case VendorExchange.Failed failed ->
                new Target.NotFound(new CancelAnswer.Unclear("lookup failed: " + failed.detail()));
            case VendorExchange.Answered answered
            when answered.response().statusCode() == 404 ->
                // Never received, or still on its way: nothing to cancel yet, and nothing proven.
                new Target.NotFound(
                        new CancelAnswer.Unclear("the vendor has no generation for reference " + attempt.reference()));
            case VendorExchange.Answered answered ->
                VendorJson.parse(answered.response().body())
                        .filter(root -> answered.response().statusCode() == 200)
                        .flatMap(root -> VendorJson.text(root, "id"))
                        .<Target>map(Target.Found::new)
                        .orElseGet(() -> new Target.NotFound(new CancelAnswer.Unclear(
                                "lookup answered HTTP " + answered.response().statusCode())));
        };
    }

    private static CancelAnswer canceled(HttpResponse<byte[]> response, String id) {
        return switch (response.statusCode()) {
            case 200 -> new CancelAnswer.Canceled("vendor canceled " + id);
            case 409 ->
                new CancelAnswer.TooLate("vendor says " + id + " already "
                        + FakeGenerationJson.errorField(response.body(), "status")
                                .orElse("finished"));
            default -> new CancelAnswer.Unclear("cancel of " + id + " answered HTTP " + response.statusCode());
        };
    }

    private VendorExchange get(URI uri) {
        return calls.get(uri, VendorCalls.LOOKUP_TIMEOUT);
    }
}
