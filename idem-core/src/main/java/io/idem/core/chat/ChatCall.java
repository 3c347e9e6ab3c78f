package io.idem.core.chat;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One attempt at one model: what an adapter needs to make exactly one vendor call.
 *
 * @param reference our id for this attempt (the call id and the attempt's position)
 * @param vendorModel the vendor's id of the model
 * @param timeout the whole attempt must end within this (a plain call's answer, a stream's end)
 * @param simulate a fault-injection directive, only ever set for the fake vendor
 * @param assistantPrefix an answer begun by another model, which this one is to continue: sent as a
 *     trailing assistant message after the request's own messages
 */
public record ChatCall(
        ChatRequest request,
        String reference,
        String vendorModel,
        Duration timeout,
        Optional<String> simulate,
        Optional<String> assistantPrefix) {

    /** A call that starts the answer. */
    public ChatCall(
            ChatRequest request, String reference, String vendorModel, Duration timeout, Optional<String> simulate) {
        this(request, reference, vendorModel, timeout, simulate, Optional.empty());
    }

    public ChatCall {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(vendorModel, "vendorModel");
        Objects.requireNonNull(simulate, "simulate");
        Objects.requireNonNull(assistantPrefix, "assistantPrefix");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("an attempt needs a positive timeout, was " + timeout);
        }
    }
}
