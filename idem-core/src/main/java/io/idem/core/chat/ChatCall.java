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
 */
public record ChatCall(
        ChatRequest request, String reference, String vendorModel, Duration timeout, Optional<String> simulate) {
    public ChatCall {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(vendorModel, "vendorModel");
        Objects.requireNonNull(simulate, "simulate");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("an attempt needs a positive timeout, was " + timeout);
        }
    }
}
