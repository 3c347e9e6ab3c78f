package io.idem.server.webhooks;

import io.idem.core.spi.WebhookSender;
import io.idem.core.text.Redactor;
import io.idem.core.webhook.Delivery;
import io.idem.server.outbound.OutboundUrls;
import io.idem.server.outbound.Receivers;
import io.idem.server.outbound.WebhookSignature;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends one attempt: a JSON POST of the delivery's body, signed Standard Webhooks style with the
 * delivery's id as {@code webhook-id}, within the timeout (the answer included; only its first
 * kilobyte is read). A 2xx is taken. A refusal names the status and the receiver's words through the
 * node's redactor and without the signing secret; never the URL. The address is checked again at
 * send time. Thread-safe.
 */
final class HttpWebhookSender implements WebhookSender {
    private static final int KEPT_BYTES = 1024;

    private final HttpClient client;
    private final SigningSecrets secrets;
    private final OutboundUrls urls;
    private final Redactor redactor;
    private final Duration timeout;
    private final InstantSource clock;

    HttpWebhookSender(
            HttpClient client,
            SigningSecrets secrets,
            OutboundUrls urls,
            Redactor redactor,
            Duration timeout,
            InstantSource clock) {
        this.client = client;
        this.secrets = secrets;
        this.urls = urls;
        this.redactor = redactor;
        this.timeout = timeout;
        this.clock = clock;
    }

    @Override
    public Result send(Delivery delivery) {
        URI uri;
        try {
            uri = URI.create(delivery.url());
        } catch (IllegalArgumentException e) {
            return new Result.Refused(0, "not a valid URL");
        }
        var refusal = urls.refusal(uri);
        if (refusal.isPresent()) {
            return new Result.Refused(0, "the address " + refusal.get());
        }
        String secret;
        try {
            secret = secrets.of(delivery.signer());
        } catch (IllegalStateException e) {
            return new Result.Refused(0, "the signing secret could not be opened (was the server secret changed?)");
        }
        return exchange(
                request(uri, delivery, secret),
                redactor.with(secret).with(secret.substring(SigningSecrets.PREFIX.length())));
    }

    private HttpRequest request(URI uri, Delivery delivery, String secret) {
        byte[] body = delivery.body().getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "Idem-Webhooks/1")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        new WebhookSignature(secret, clock)
                .headers(delivery.id().toString(), body)
                .forEach(request::header);
        return request.build();
    }

    private Result exchange(HttpRequest request, Redactor hiding) {
        CompletableFuture<HttpResponse<String>> exchange = client.sendAsync(request, ReplyPrefix.handler(KEPT_BYTES));
        try {
            HttpResponse<String> response = exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            int status = response.statusCode();
            return status / 100 == 2
                    ? new Result.Taken(status)
                    : new Result.Refused(status, Receivers.refusal(status, Receivers.said(hiding, response.body())));
        } catch (TimeoutException e) {
            exchange.cancel(true);
            return new Result.Refused(0, "no answer within " + timeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            return new Result.Refused(0, Receivers.noAnswer(cause instanceof Exception ex ? ex : e));
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            return new Result.Refused(0, "interrupted (the node is stopping)");
        }
    }
}
