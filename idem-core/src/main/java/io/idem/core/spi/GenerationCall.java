package io.idem.core.spi;

import io.idem.core.domain.ImageParams;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.VideoParams;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything an adapter needs for one call.
 *
 * @param provider the provider's configured name
 * @param vendorModel the vendor's model id (already mapped from Idem's model name)
 * @param request what to make
 * @param reference our attempt id, sent to vendors that can look a call up by it
 * @param simulate a fault-injection directive; only fake providers ever receive one
 * @param callback where the vendor may call back about this attempt (a signed Idem URL), when
 *     Idem has a public address
 * @param deadline when the job itself gives up (its {@code deadline_seconds}), which may be later
 *     than this call's {@code timeout}: a vendor that takes a server-side deadline (Replicate's
 *     {@code Cancel-After}) is given this one, so a clip still rendering when the call stops
 *     waiting can still be collected by reconcile; empty when unknown (the call's timeout then)
 */
public record GenerationCall(
        String provider,
        String vendorModel,
        Request request,
        Duration timeout,
        String reference,
        Optional<String> simulate,
        AttemptListener listener,
        Optional<java.net.URI> callback,
        Optional<Instant> deadline) {
    public GenerationCall {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(simulate, "simulate");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(callback, "callback");
        Objects.requireNonNull(deadline, "deadline");
    }

    /** A call whose job deadline is not known to the adapter (its timeout is all it has). */
    public GenerationCall(
            String provider,
            String vendorModel,
            Request request,
            Duration timeout,
            String reference,
            Optional<String> simulate,
            AttemptListener listener,
            Optional<java.net.URI> callback) {
        this(provider, vendorModel, request, timeout, reference, simulate, listener, callback, Optional.empty());
    }

    /** A call without a callback address. */
    public GenerationCall(
            String provider,
            String vendorModel,
            Request request,
            Duration timeout,
            String reference,
            Optional<String> simulate,
            AttemptListener listener) {
        this(provider, vendorModel, request, timeout, reference, simulate, listener, Optional.empty());
    }

    /**
     * What to make: the prompt, the kind of output, its size and how many.
     *
     * @param video a video call's parameters (duration, resolution, first frame …)
     * @param image an image call's own parameters (quality, output format …); the adapter forwards
     *     those its vendor honours (routing sends it no call naming one it does not)
     */
    public record Request(
            String prompt, JobKind kind, String size, int n, Optional<VideoParams> video, ImageParams image) {
        public Request {
            Objects.requireNonNull(prompt, "prompt");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(video, "video");
            Objects.requireNonNull(image, "image");
        }

        /** A request without image parameters. */
        public Request(String prompt, JobKind kind, String size, int n, Optional<VideoParams> video) {
            this(prompt, kind, size, n, video, ImageParams.NONE);
        }

        /** A request without video parameters. */
        public Request(String prompt, JobKind kind, String size, int n) {
            this(prompt, kind, size, n, Optional.empty());
        }

        /** What {@code generation} asks a provider for. */
        public static Request of(JobSpec.Generation generation) {
            return new Request(
                    generation.prompt(),
                    generation.kind(),
                    generation.size(),
                    generation.n(),
                    generation.video(),
                    generation.image());
        }

        /** {@code n} images of {@code size}. */
        public static Request images(String prompt, String size, int n) {
            return new Request(prompt, JobKind.IMAGE, size, n);
        }
    }

    public String prompt() {
        return request.prompt();
    }

    public JobKind kind() {
        return request.kind();
    }

    public String size() {
        return request.size();
    }

    public int n() {
        return request.n();
    }

    /** A video call's parameters; empty for images. */
    public Optional<VideoParams> video() {
        return request.video();
    }

    /** An image call's own parameters ({@link ImageParams#NONE} when the job names none). */
    public ImageParams image() {
        return request.image();
    }
}
