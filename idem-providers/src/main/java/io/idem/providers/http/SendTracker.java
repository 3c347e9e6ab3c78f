package io.idem.providers.http;

import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A request body that remembers whether the HTTP client ever asked for it. This is what separates
 * "the request never left" ({@code Unavailable}) from "the request may have been served" ({@code
 * Unconfirmed}) when a call fails without an answer (DESIGN §3).
 *
 * <p>"Pulled" is deliberately pessimistic: it turns true the moment the client subscribes, before a
 * single byte is on the wire. A vendor cannot act on a request whose body it never received, so a
 * body that was never subscribed to was never sent; a subscribed body may or may not have been.
 * Use it together with {@code HttpRequest.Builder.expectContinue(true)}: the JDK client then
 * subscribes only after the server answered {@code 100 Continue} (verified in {@code
 * SendTrackerTest}), so a server that drops the connection after reading the request
 * head leaves the body un-pulled.
 *
 * <p>Thread-safe. One instance per request: it answers for exactly one send.
 */
public final class SendTracker implements BodyPublisher {
    private final BodyPublisher body;
    private final AtomicBoolean pulled = new AtomicBoolean();
    private final AtomicLong bytesPulled = new AtomicLong();

    private SendTracker(BodyPublisher body) {
        this.body = Objects.requireNonNull(body, "body");
    }

    /** Tracks {@code body}; pass the tracker, not the body, to {@code HttpRequest.Builder.POST}. */
    public static SendTracker track(BodyPublisher body) {
        return new SendTracker(body);
    }

    /** Tracks a byte-array body. */
    public static SendTracker track(byte[] body) {
        return new SendTracker(HttpRequest.BodyPublishers.ofByteArray(body));
    }

    /** Whether the client asked for the body: if not, no byte of it can have left this process. */
    public boolean bodyPulled() {
        return pulled.get();
    }

    /** How many body bytes the client took from the publisher (handed to the socket, or about to be). */
    public long bytesPulled() {
        return bytesPulled.get();
    }

    @Override
    public long contentLength() {
        return body.contentLength();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        pulled.set(true);
        body.subscribe(new Counting(subscriber, bytesPulled));
    }

    private record Counting(Flow.Subscriber<? super ByteBuffer> downstream, AtomicLong count)
            implements Flow.Subscriber<ByteBuffer> {
        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            downstream.onSubscribe(subscription);
        }

        @Override
        public void onNext(ByteBuffer item) {
            count.addAndGet(item.remaining());
            downstream.onNext(item);
        }

        @Override
        public void onError(Throwable throwable) {
            downstream.onError(throwable);
        }

        @Override
        public void onComplete() {
            downstream.onComplete();
        }
    }
}
