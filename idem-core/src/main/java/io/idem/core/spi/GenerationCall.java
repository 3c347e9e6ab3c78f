package io.idem.core.spi;

import io.idem.core.domain.JobKind;
import java.time.Duration;
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
 */
public record GenerationCall(
        String provider,
        String vendorModel,
        Request request,
        Duration timeout,
        String reference,
        Optional<String> simulate,
        AttemptListener listener,
        Optional<java.net.URI> callback) {
    public GenerationCall {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(simulate, "simulate");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(callback, "callback");
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

    /** What to make: the prompt, the kind of output, its size and how many. */
    public record Request(String prompt, JobKind kind, String size, int n) {
        public Request {
            Objects.requireNonNull(prompt, "prompt");
            Objects.requireNonNull(kind, "kind");
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
}
