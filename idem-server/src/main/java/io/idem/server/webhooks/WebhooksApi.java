package io.idem.server.webhooks;

import io.idem.core.domain.Role;
import io.idem.core.spi.WebhookSubscriptions;
import io.idem.server.http.ApiError;
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Cursors;
import io.idem.server.http.Feature;
import io.idem.server.http.Ids;
import io.idem.server.http.Json;
import io.idem.server.http.QueryParams;
import io.idem.server.outbound.OutboundUrls;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code /v1/webhooks}: subscribe (the signing secret is in this answer only), list, read, delete,
 * and each subscription's delivery log; {@code /v1/webhooks/callback-secret}, the secret that signs
 * the callbacks of the caller's jobs. An admin's subscription gets every event of every owner;
 * anyone else's gets the job events of its owner's jobs, and sees only its owner's subscriptions.
 */
public final class WebhooksApi implements Feature {
    /** How many subscriptions one owner may hold. */
    static final int MAX_PER_OWNER = 100;

    private final Auth auth;
    private final WebhookSubscriptions subscriptions;
    private final SigningSecrets secrets;
    private final SubscriptionRequests requests;
    private final InstantSource clock;

    public WebhooksApi(
            Auth auth,
            WebhookSubscriptions subscriptions,
            SigningSecrets secrets,
            OutboundUrls urls,
            InstantSource clock) {
        this.auth = auth;
        this.subscriptions = subscriptions;
        this.secrets = secrets;
        this.requests = new SubscriptionRequests(urls);
        this.clock = clock;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.post("/v1/webhooks", this::create);
        config.routes.get("/v1/webhooks", this::list);
        config.routes.get("/v1/webhooks/callback-secret", this::callbackSecret);
        config.routes.get("/v1/webhooks/{id}", this::get);
        config.routes.delete("/v1/webhooks/{id}", this::delete);
        config.routes.get("/v1/webhooks/{id}/deliveries", this::deliveries);
    }

    private void create(Context ctx) {
        Caller caller = auth.require(ctx);
        boolean admin = caller.role() == Role.ADMIN;
        SubscriptionRequests.Request request = requests.read(Json.readObject(ctx, 16 * 1024), admin);
        if (subscriptions.count(caller.owner()) >= MAX_PER_OWNER) {
            throw new ApiError(
                    409, "webhook_limit_reached", "an owner may hold " + MAX_PER_OWNER + " subscriptions; delete one");
        }
        var subscription = new WebhookSubscriptions.Subscription(
                UUID.randomUUID(),
                caller.owner(),
                admin,
                caller.key().id(),
                request.url(),
                request.eventTypes(),
                request.description(),
                clock.instant());
        String secret = secrets.generate();
        subscriptions.create(subscription, secrets.seal(subscription.id(), secret));
        Map<String, Object> out = WebhookJson.subscription(subscription);
        out.put("secret", secret);
        ctx.status(201).header("Location", "/v1/webhooks/" + subscription.id());
        Json.write(ctx, out);
    }

    private void list(Context ctx) {
        Caller caller = auth.require(ctx);
        Json.write(
                ctx,
                Map.of(
                        "data",
                        subscriptions.list(scope(caller)).stream()
                                .map(WebhookJson::subscription)
                                .toList()));
    }

    private void get(Context ctx) {
        Json.write(ctx, WebhookJson.subscription(load(ctx, auth.require(ctx))));
    }

    private void delete(Context ctx) {
        Caller caller = auth.require(ctx);
        if (!subscriptions.delete(Ids.pathId(ctx, "webhook"), scope(caller))) {
            throw ApiError.notFound("webhook");
        }
        ctx.status(204);
    }

    private void deliveries(Context ctx) {
        Caller caller = auth.require(ctx);
        int limit = QueryParams.limit(ctx.queryParam("limit"));
        Optional<WebhookSubscriptions.Cursor> after = Optional.ofNullable(Cursors.decode(
                ctx.queryParam("cursor"),
                2,
                parts -> new WebhookSubscriptions.Cursor(
                        Cursors.time(parts[0]), Ids.uuid(parts[1]).orElseThrow())));
        var page = subscriptions.deliveries(load(ctx, caller).id(), after, limit);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("data", page.deliveries().stream().map(WebhookJson::delivery).toList());
        body.put(
                "next_cursor",
                page.next()
                        .map(c -> Cursors.encode(c.createdAt().toString(), c.id().toString()))
                        .orElse(null));
        Json.write(ctx, body);
    }

    private void callbackSecret(Context ctx) {
        Caller caller = auth.require(ctx);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("api_key_id", caller.key().id().toString());
        out.put("secret", secrets.forKey(caller.key().id()));
        Json.write(ctx, out);
    }

    private WebhookSubscriptions.Subscription load(Context ctx, Caller caller) {
        return subscriptions
                .find(Ids.pathId(ctx, "webhook"), scope(caller))
                .orElseThrow(() -> ApiError.notFound("webhook"));
    }

    /** Admins see every owner's subscriptions; anyone else its own owner's. */
    private static String scope(Caller caller) {
        return caller.role() == Role.ADMIN ? null : caller.owner();
    }
}
