package io.idem.server.hooks;

import io.idem.core.engine.Reconciler;
import io.idem.core.spi.Webhooks;
import io.idem.server.http.ApiError;
import io.idem.server.http.Feature;
import io.idem.server.http.Ids;
import io.idem.server.http.Json;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.InstantSource;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/hooks/{provider}}: vendor callbacks. A delivery proves only that the vendor knows
 * the attempt; Idem never takes the body's word for a result. It asks the vendor (reconcile) about a
 * parked attempt at once. Forged deliveries (bad signature) are refused with 401; replays of an
 * already-processed delivery with 409. Both are logged without the signature or body.
 */
public final class HooksApi implements Feature {
    private static final Logger log = LoggerFactory.getLogger(HooksApi.class);
    private static final long MAX_BYTES = 1024 * 1024;

    private final WebhookLinks links;
    private final Webhooks webhooks;
    private final Reconciler reconciler;
    private final InstantSource clock;

    public HooksApi(WebhookLinks links, Webhooks webhooks, Reconciler reconciler, InstantSource clock) {
        this.links = links;
        this.webhooks = webhooks;
        this.reconciler = reconciler;
        this.clock = clock;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.post("/v1/hooks/{provider}", this::receive);
    }

    private void receive(Context ctx) {
        String provider = ctx.pathParam("provider");
        String reference = ctx.queryParam("ref");
        if (!links.verify(provider, reference, ctx.queryParam("sig"))) {
            log.warn("refused a forged callback for provider '{}' from {}", provider, ctx.ip());
            throw new ApiError(401, "invalid_signature", "this callback is not signed by Idem");
        }
        UUID attemptId = Ids.uuid(reference)
                .orElseThrow(() ->
                        ApiError.badRequest("invalid_reference", "this callback's reference does not name an attempt"));
        byte[] body = Json.body(ctx, MAX_BYTES);
        UUID jobId = webhooks.jobOfAttempt(attemptId, provider).orElseThrow(() -> ApiError.notFound("attempt"));
        if (!webhooks.recordDelivery(digest(provider, reference, body), provider, attemptId, clock.instant())) {
            log.warn("refused a replayed callback for attempt {} of provider '{}'", attemptId, provider);
            throw new ApiError(409, "callback_replayed", "this delivery was processed before");
        }
        Reconciler.Verdict verdict = reconciler.reconcileNow(jobId, "webhook:" + provider);
        Json.write(ctx, Map.of("status", "accepted", "reconcile", verdict.name().toLowerCase(java.util.Locale.ROOT)));
    }

    private static byte[] digest(String provider, String reference, byte[] body) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(provider.getBytes());
            sha.update((byte) 0);
            sha.update(reference.getBytes());
            sha.update((byte) 0);
            return sha.digest(body);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
