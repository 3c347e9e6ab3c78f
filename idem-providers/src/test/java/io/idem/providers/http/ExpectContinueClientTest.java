package io.idem.providers.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.outcome.Outcome;
import io.idem.providers.http.ExpectStandIn.Behaviour;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A job's billable POST ({@link VendorCalls#billablePost}) through {@link ExpectContinueClient}
 * against raw-socket vendors that handle {@code Expect: 100-continue} each their own way. The
 * outcome is asserted, never the time taken; that the vendor saw the body at most once is asserted
 * from what the vendor counted.
 */
class ExpectContinueClientTest {
    private static final String BODY = "{\"model\":\"m\",\"prompt\":\"a red fox\",\"reference\":\"expect\"}";
    /** For vendors that never say {@code 100} in time: the wait runs out. */
    private static HttpClient hasty;
    /** For vendors that answer the head at once: a wait no busy machine's hiccup outlasts. */
    private static HttpClient patient;

    @BeforeAll
    static void start() {
        hasty = new ExpectContinueClient(
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(), Duration.ofMillis(200));
        patient = new ExpectContinueClient(
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(), Duration.ofMillis(2500));
    }

    @AfterAll
    static void stop() {
        hasty.close();
        patient.close();
    }

    private static VendorExchange post(ExpectStandIn vendor, SendTracker tracker) {
        return post(vendor, tracker, patient);
    }

    private static VendorExchange post(ExpectStandIn vendor, SendTracker tracker, HttpClient client) {
        HttpRequest request = VendorCalls.billablePost(
                        vendor.uri("/v1/images/generations"), Duration.ofSeconds(3), tracker)
                .build();
        return VendorExchange.send(client, request, tracker);
    }

    private static void assertAnswered(VendorExchange exchange, int status) {
        assertThat(exchange)
                .isInstanceOfSatisfying(
                        VendorExchange.Answered.class,
                        a -> assertThat(a.response().statusCode()).isEqualTo(status));
    }

    private static SendTracker body() {
        return SendTracker.track(BODY.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A vendor that never says {@code 100}, and one that says it only after the wait: either way
     * the abandoned exchange sent its head and not one byte of its body (a late {@code 100} finds
     * the body withheld), and the vendor got the body once, from the request sent again.
     */
    @ParameterizedTest
    @EnumSource(
            value = Behaviour.class,
            names = {"IGNORES_EXPECT", "CONTINUES_LATE"})
    void aVendorThatDoesNotContinueInTimeGetsTheBodyOnceAfterTheWait(Behaviour behaviour) throws Exception {
        try (ExpectStandIn vendor = ExpectStandIn.start(behaviour)) {
            SendTracker tracker = body();
            VendorExchange exchange = post(vendor, tracker, hasty);

            assertAnswered(exchange, 200);
            assertThat(vendor.unaskedBodyBytes(Duration.ofSeconds(10))).isZero();
            assertThat(vendor.bodies()).containsExactly(BODY);
            assertThat(vendor.heads()).isEqualTo(2);
            assertThat(tracker.bodyPulled()).isTrue();
            assertThat(tracker.bytesPulled()).isEqualTo(BODY.length());
        }
    }

    @Test
    void a417IsAnsweredByTheSameBodyWithoutExpect() {
        try (ExpectStandIn vendor = ExpectStandIn.start(Behaviour.REFUSES_EXPECT)) {
            SendTracker tracker = body();
            VendorExchange exchange = post(vendor, tracker);

            assertAnswered(exchange, 200);
            assertThat(vendor.bodies()).containsExactly(BODY);
            assertThat(vendor.heads()).isEqualTo(2);
            assertThat(tracker.bytesPulled()).isEqualTo(BODY.length());
        }
    }

    @Test
    void aFinalAnswerToTheHeadLeavesTheBodyUnsent() {
        try (ExpectStandIn vendor = ExpectStandIn.answeringHeads(503)) {
            SendTracker tracker = body();
            VendorExchange exchange = post(vendor, tracker);

            assertAnswered(exchange, 503);
            assertThat(vendor.heads()).isEqualTo(1);
            assertThat(vendor.bodies()).isEmpty();
            assertThat(tracker.bodyPulled()).isFalse();
        }
    }

    @Test
    void aDropAfterTheBodyStaysUnconfirmed() {
        try (ExpectStandIn vendor = ExpectStandIn.start(Behaviour.DROPS_AFTER_BODY)) {
            SendTracker tracker = body();
            VendorExchange exchange = post(vendor, tracker);

            assertThat(exchange)
                    .isInstanceOfSatisfying(
                            VendorExchange.Failed.class,
                            f -> assertThat(f.outcome())
                                    .isInstanceOfSatisfying(
                                            Outcome.Unconfirmed.class,
                                            u -> assertThat(u.code()).isEqualTo("connection_lost")));
            assertThat(vendor.bodies()).containsExactly(BODY);
            assertThat(vendor.heads()).isEqualTo(1);
        }
    }

    @Test
    void aVendorThatContinuesIsAskedOnce() {
        try (ExpectStandIn vendor = ExpectStandIn.start(Behaviour.CONTINUES)) {
            SendTracker tracker = body();
            VendorExchange exchange = post(vendor, tracker);

            assertThat(exchange).isInstanceOf(VendorExchange.Answered.class);
            assertThat(vendor.heads()).isEqualTo(1);
            assertThat(vendor.bodies()).containsExactly(BODY);
        }
    }

    @Test
    void aWithheldBodyRefusesItsSubscriberWithoutAByte() {
        SendTracker tracker = body();

        assertThat(tracker.withhold()).isTrue();
        Recorder recorder = new Recorder();
        tracker.subscribe(recorder);

        assertThat(recorder.items).isEmpty();
        assertThat(recorder.failure).isNotNull();
        assertThat(SendTracker.isWithheld(recorder.failure)).isTrue();
        assertThat(tracker.bodyPulled()).isFalse();
        assertThat(tracker.bytesPulled()).isZero();
    }

    @Test
    void aBodyTheClientAskedForCannotBeWithheld() {
        SendTracker tracker = body();
        Recorder recorder = new Recorder();
        tracker.subscribe(recorder);

        assertThat(tracker.withhold()).isFalse();
        assertThat(tracker.bodyPulled()).isTrue();
    }

    /** Takes everything it is given. */
    private static final class Recorder implements Flow.Subscriber<ByteBuffer> {
        final List<ByteBuffer> items = new ArrayList<>();
        Throwable failure;

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(ByteBuffer item) {
            items.add(item);
        }

        @Override
        public void onError(Throwable throwable) {
            failure = throwable;
        }

        @Override
        public void onComplete() {
            // nothing to record
        }
    }
}
