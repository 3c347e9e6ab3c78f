package io.idem.providers.http;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
 * <p>A request whose vendor never answers the head may be abandoned and sent again without {@code
 * Expect} ({@link ExpectContinueClient}): {@link #withhold()} then shuts this publisher for good, so
 * the abandoned exchange can never send a byte, even if a late {@code 100} arrives, and {@link
 * #resent()} is the body of the one request that replaces it. Both count here.
 *
 * <p>Thread-safe. One instance per request: it answers for exactly one send (and its replacement).
 */
public final class SendTracker implements BodyPublisher {
    private static final int OPEN = 0;
    private static final int SUBSCRIBED = 1;
    private static final int WITHHELD = 2;

    private final BodyPublisher body;
    /** This publisher's own state: OPEN until the client subscribes, or until it is withheld. */
    private final AtomicInteger state = new AtomicInteger(OPEN);

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

    /**
     * Shuts this publisher unless the client already asked for it: from now on a subscriber gets
     * an error at once and not a byte. True when the body never left through this publisher and
     * never will (also when it was withheld before); false when the client already asked for it.
     */
    public boolean withhold() {
        return state.compareAndExchange(OPEN, WITHHELD) != SUBSCRIBED;
    }

    /**
     * The same body for the request that replaces a withheld one; what it sends counts here. Only
     * after {@link #withhold()} returned true.
     */
    public BodyPublisher resent() {
        if (state.get() != WITHHELD) {
            throw new IllegalStateException("a body is resent only once its first request was withheld");
        }
        return new Resent();
    }

    /** Whether {@code failure} is (or was caused by) a withheld body refusing its subscriber. */
    static boolean isWithheld(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof Withheld) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        if (state.compareAndExchange(OPEN, SUBSCRIBED) == WITHHELD) {
            subscriber.onSubscribe(new Refused());
            subscriber.onError(new Withheld());
            return;
        }
        pulled.set(true);
        body.subscribe(new Counting(subscriber, bytesPulled));
    }

    /** The replacement request's body: the same bytes, counted by the same tracker. */
    private final class Resent implements BodyPublisher {
        @Override
        public long contentLength() {
            return body.contentLength();
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            pulled.set(true);
            body.subscribe(new Counting(subscriber, bytesPulled));
        }
    }

    /** What a withheld body tells a client that asks for it anyway. */
    private static final class Withheld extends IOException {
        Withheld() {
            super("request body withheld: the request was abandoned before its body was sent");
        }
    }

    private static final class Refused implements Flow.Subscription {
        @Override
        public void request(long n) {
            // nothing to give
        }

        @Override
        public void cancel() {
            // nothing to stop
        }
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
