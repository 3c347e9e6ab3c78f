package io.idem.providers.http;

import io.idem.core.domain.ImageParams;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.VideoParams;
import io.idem.core.spi.AttemptListener;
import io.idem.core.spi.GenerationCall;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** Builds a generation call for one provider with sensible defaults and a fresh UUID reference. */
public final class CallBuilder {
    private final String provider;
    private String vendorModel;
    private Duration timeout = Duration.ofSeconds(30);
    private int n = 1;
    private String reference = UUID.randomUUID().toString();
    private String size = "1024x1024";
    private AttemptListener listener = AttemptListener.NONE;
    private Optional<URI> callback = Optional.empty();
    private Optional<VideoParams> video = Optional.empty();
    private Optional<Instant> deadline = Optional.empty();
    private ImageParams image = ImageParams.NONE;

    public CallBuilder(String provider, String vendorModel) {
        this.provider = provider;
        this.vendorModel = vendorModel;
    }

    public CallBuilder timeout(Duration timeout) {
        this.timeout = timeout;
        return this;
    }

    public CallBuilder images(int n) {
        this.n = n;
        return this;
    }

    public CallBuilder vendorModel(String vendorModel) {
        this.vendorModel = vendorModel;
        return this;
    }

    public CallBuilder reference(String reference) {
        this.reference = reference;
        return this;
    }

    public CallBuilder size(String size) {
        this.size = size;
        return this;
    }

    public CallBuilder listener(AttemptListener listener) {
        this.listener = listener;
        return this;
    }

    public CallBuilder callback(URI callback) {
        this.callback = Optional.of(callback);
        return this;
    }

    /** A video call making {@code clip} instead of images. */
    public CallBuilder video(VideoParams clip) {
        this.video = Optional.of(clip);
        return this;
    }

    /** The job's own deadline, later than the call's timeout. */
    public CallBuilder deadline(Instant deadline) {
        this.deadline = Optional.of(deadline);
        return this;
    }

    /** The image parameters the call carries. */
    public CallBuilder image(ImageParams image) {
        this.image = image;
        return this;
    }

    /** {@code call} carrying {@code image}: for the stubs that build their own calls. */
    public static GenerationCall withImage(GenerationCall call, ImageParams image) {
        var r = call.request();
        return new GenerationCall(
                call.provider(),
                call.vendorModel(),
                new GenerationCall.Request(r.prompt(), r.kind(), r.size(), r.n(), r.video(), image),
                call.timeout(),
                call.reference(),
                call.simulate(),
                call.listener(),
                call.callback(),
                call.deadline());
    }

    /** Every image parameter: high quality vivid transparent WebP at 70, low moderation, a seed passed through. */
    public static final ImageParams EVERY_IMAGE_PARAMETER = new ImageParams(
            Optional.of("high"),
            Optional.of("vivid"),
            Optional.of("transparent"),
            Optional.of("webp"),
            Optional.of(70),
            Optional.of("low"),
            Optional.of("{\"prompt\":\"not this\",\"seed\":3}"));

    /** JPEG at compression 10: what fal, Replicate and Runware each name in their own way. */
    public static final ImageParams JPEG_AT_10 = new ImageParams(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.of("jpeg"),
            Optional.of(10),
            Optional.empty(),
            Optional.of("{\"seed\":3}"));

    public GenerationCall build() {
        String prompt = "A lighthouse over a cloud ocean";
        GenerationCall.Request request = video.map(
                        clip -> new GenerationCall.Request(prompt, JobKind.VIDEO, clip.size(), 1, Optional.of(clip)))
                .orElseGet(() -> new GenerationCall.Request(prompt, JobKind.IMAGE, size, n, Optional.empty(), image));
        return new GenerationCall(
                provider, vendorModel, request, timeout, reference, Optional.empty(), listener, callback, deadline);
    }
}
