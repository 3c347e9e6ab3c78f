package io.idem.providers.fake;

import io.idem.providers.fake.SimulateMode.Fixed;
import io.idem.providers.fake.VendorBodies.EmptySuccess;
import io.idem.providers.fake.VendorBodies.ErrorBody;
import io.idem.providers.fake.VendorBodies.GenerationView;
import java.io.IOException;
import java.time.Duration;

/**
 * {@code POST /v1/images/generations} and {@code POST /v1/videos}: accepts a generation and acts out
 * the fault named in {@code X-Idem-Simulate} (DESIGN §7, "The fake vendor"). What each mode bills is
 * the point of the fake: the invoice it keeps is what Idem's audit must reconcile to. Images answer
 * at once with the result; a video is accepted, polled and fetched ({@link VideoActs}), so the
 * modes that differ between the two are its {@link Acts}.
 */
final class GenerationIntake {
    static final String SIMULATE_HEADER = "X-Idem-Simulate";

    private final GenerationBook book;
    private final Acts acts;

    /** What the modes that read the request do where images and videos differ. */
    interface Acts {
        GenerationRequestReader.Result read(byte[] body);

        /** {@code ok}: the answer to a generation the vendor will deliver. */
        Reply ok(GenerationRequest request);

        /** {@code malformed}: a 200 the caller cannot use. */
        Reply malformed(GenerationRequest request);

        /** {@code slow:MS}: a generation that takes {@code delay}, unless canceled. */
        Reply slow(GenerationRequest request, Duration delay) throws InterruptedException;
    }

    /** The image intake. */
    GenerationIntake(GenerationBook book) {
        this.book = book;
        this.acts = new ImageActs();
    }

    GenerationIntake(GenerationBook book, Acts acts) {
        this.book = book;
        this.acts = acts;
    }

    /** Images: answered in the POST itself. */
    private final class ImageActs implements Acts {
        @Override
        public GenerationRequestReader.Result read(byte[] body) {
            return GenerationRequestReader.read(body);
        }

        @Override
        public Reply ok(GenerationRequest request) {
            return success(book.record(request, GenerationStatus.SUCCEEDED));
        }

        @Override
        public Reply malformed(GenerationRequest request) {
            return emptySuccess(book.record(request, GenerationStatus.FAILED));
        }

        @Override
        public Reply slow(GenerationRequest request, Duration delay) throws InterruptedException {
            return slowly(request, delay);
        }
    }

    Reply accept(RequestHead head, RequestBody body)
            throws IOException, MalformedRequestException, InterruptedException {
        SimulateMode mode = SimulateMode.parse(head.header(SIMULATE_HEADER).orElse("ok"));
        return switch (mode) {
            // Never reads the body, so never sends 100 Continue: a client that waited for it has
            // provably kept its body, and the reset tells it nothing was served.
            case Fixed.REFUSE -> new Reply.Reset();
            // These answer from the head alone, the way a gateway sheds load before reading a body.
            case SimulateMode.Unknown unknown ->
                Reply.json(
                        400, ErrorBody.of("unknown_simulate_mode", "unknown simulate mode '" + unknown.value() + "'"));
            case Fixed.HTTP_503 -> Reply.json(503, ErrorBody.of("overloaded", "overloaded, nothing was generated"));
            // A bare 429 (no Retry-After) counts against the breaker like a 503.
            case Fixed.HTTP_429 -> Reply.json(429, ErrorBody.of("rate_limited", "too many requests"));
            case SimulateMode.RateLimited limited -> rateLimited(limited.retryAfter());
            case Fixed.AUTH -> Reply.json(401, ErrorBody.of("invalid_api_key", "the API key is not valid"));
            // These judge the request, so they read it first.
            // Rejections are remembered, so a lookup after a lost answer can still say "refused".
            case Fixed.USER_ERROR ->
                withRequest(
                        body,
                        request -> rejected(
                                request,
                                GenerationStatus.REJECTED_INPUT,
                                "invalid_size",
                                "the requested size is not supported"));
            case Fixed.POLICY ->
                withRequest(
                        body,
                        request -> rejected(
                                request,
                                GenerationStatus.REJECTED_POLICY,
                                "content_policy_violation",
                                "the prompt was rejected by the safety system"));
            case Fixed.OK -> withRequest(body, acts::ok);
            // Never answers Expect: the client has to send its body unasked, then it is served.
            case Fixed.IGNORE_EXPECT -> withRequest(body.readIgnoringExpect(), acts::ok);
            case Fixed.MALFORMED -> withRequest(body, acts::malformed);
            case Fixed.TIMEOUT ->
                withRequest(body, request -> recordThen(request, GenerationStatus.SUCCEEDED, new Reply.Hold()));
            case Fixed.DISCONNECT ->
                withRequest(body, request -> recordThen(request, GenerationStatus.SUCCEEDED, new Reply.Reset()));
            case Fixed.LOST ->
                withRequest(body, request -> recordThen(request, GenerationStatus.FAILED, new Reply.Reset()));
            case SimulateMode.Slow slow -> withRequest(body, request -> acts.slow(request, slow.delay()));
        };
    }

    private Reply recordThen(GenerationRequest request, GenerationStatus end, Reply reply) {
        book.record(request, end);
        return reply;
    }

    private static Reply rateLimited(Duration wait) {
        return new Reply.Answer(WireResponse.json(429, ErrorBody.of("rate_limited", "too many requests"))
                .withHeader("Retry-After", Long.toString(wait.toSeconds())));
    }

    private Reply rejected(GenerationRequest request, GenerationStatus status, String code, String message) {
        book.record(request, status);
        return Reply.json(400, ErrorBody.invalidRequest(code, message));
    }

    /** Claims success and carries no image: the {@code malformed} answer. */
    private static Reply emptySuccess(Generation generation) {
        return Reply.json(200, new EmptySuccess(generation.id()));
    }

    /** Runs for {@code delay}, then bills and answers, unless the generation is canceled meanwhile. */
    private Reply slowly(GenerationRequest request, Duration delay) throws InterruptedException {
        Generation running = book.start(request);
        book.awaitCancel(running.id(), delay);
        Generation done = book.finish(running.id(), GenerationStatus.SUCCEEDED);
        return switch (done.status()) {
            case SUCCEEDED -> success(done);
            case CANCELED ->
                Reply.json(409, ErrorBody.of("canceled", "the generation was canceled before it finished"));
            case RUNNING, FAILED, REJECTED_POLICY, REJECTED_INPUT ->
                throw new IllegalStateException("generation " + done.id() + " ended " + done.status());
        };
    }

    private static Reply success(Generation generation) {
        return new Reply.Answer(
                WireResponse.json(200, GenerationView.of(generation)).withHeader("X-Request-Id", generation.id()));
    }

    private Reply withRequest(RequestBody body, Work work)
            throws IOException, MalformedRequestException, InterruptedException {
        return withRequest(body.read(), work);
    }

    private Reply withRequest(byte[] body, Work work) throws MalformedRequestException, InterruptedException {
        return switch (acts.read(body)) {
            case GenerationRequestReader.Valid valid -> work.run(valid.request());
            case GenerationRequestReader.Invalid invalid ->
                Reply.json(400, ErrorBody.invalidRequest(invalid.code(), invalid.message()));
        };
    }

    @FunctionalInterface
    private interface Work {
        Reply run(GenerationRequest request) throws InterruptedException;
    }
}
