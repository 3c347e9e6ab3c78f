package io.idem.server.webhooks;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body reader that keeps the first {@code max} bytes as text and drops the rest, so a
 * receiver that answers at length cannot fill the node's memory (the caller bounds the time).
 */
final class ReplyPrefix implements HttpResponse.BodySubscriber<String> {
    private final int max;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final CompletableFuture<String> text = new CompletableFuture<>();

    ReplyPrefix(int max) {
        this.max = max;
    }

    static HttpResponse.BodyHandler<String> handler(int max) {
        return info -> new ReplyPrefix(max);
    }

    @Override
    public CompletionStage<String> getBody() {
        return text;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        for (ByteBuffer item : items) {
            int room = Math.min(item.remaining(), max - kept.size());
            if (room > 0) {
                byte[] bytes = new byte[room];
                item.get(bytes);
                kept.write(bytes, 0, room);
            }
        }
    }

    @Override
    public void onError(Throwable failure) {
        text.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
        text.complete(kept.toString(StandardCharsets.UTF_8));
    }
}
