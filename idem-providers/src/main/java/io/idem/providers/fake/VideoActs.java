package io.idem.providers.fake;

import io.idem.providers.fake.VendorBodies.GenerationView;
import java.time.Duration;

/**
 * How {@code POST /v1/videos} acts out the modes that read the request: a video is accepted at once
 * ({@code 200} with its id, status {@code running}), renders, and is then polled and fetched. {@code
 * ok} renders at once, {@code slow:MS} for MS milliseconds (a cancel meanwhile leaves it unbilled),
 * {@code malformed} answers 200 without an id. The faults that lose the answer are the image ones.
 */
final class VideoActs implements GenerationIntake.Acts {
    private final GenerationBook book;

    VideoActs(GenerationBook book) {
        this.book = book;
    }

    @Override
    public GenerationRequestReader.Result read(byte[] body) {
        return GenerationRequestReader.readVideo(body);
    }

    @Override
    public Reply ok(GenerationRequest request) {
        return accepted(book.startVideo(request, Duration.ZERO));
    }

    @Override
    public Reply malformed(GenerationRequest request) {
        book.record(request, GenerationStatus.FAILED);
        return Reply.json(200, new VendorBodies.Status("running"));
    }

    @Override
    public Reply slow(GenerationRequest request, Duration delay) {
        return accepted(book.startVideo(request, delay));
    }

    private static Reply accepted(Generation generation) {
        return new Reply.Answer(
                WireResponse.json(200, GenerationView.of(generation)).withHeader("X-Request-Id", generation.id()));
    }
}
