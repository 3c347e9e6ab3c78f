package io.idem.core.chat;

import io.idem.core.spi.HealthAnswer;

/**
 * One vendor's chat protocol, mapped onto Idem's outcome classification (DESIGN §3).
 *
 * <p>Contract: neither method throws for anything the vendor or the network does; failures are
 * classified {@link io.idem.core.outcome.Outcome}s, and "sent" versus "not sent" decides {@code
 * Unavailable} versus {@code Unconfirmed}: an answer that was sent but never completed is billable
 * unknown. A request is never retried. An exception escaping is treated by the engine as an {@code
 * AdapterFault} that may have sent. Implementations are thread-safe.
 */
public interface ChatAdapter {

    /** One plain call: waits for the whole answer, at most {@code call.timeout()}. */
    ChatReply complete(ChatCall call);

    /**
     * Starts one streaming call and returns at once (or as soon as the request is on its way);
     * everything the vendor says, including a refusal, arrives as events.
     */
    ChatStream stream(ChatCall call);

    /**
     * The first field of {@code request} this adapter would have to drop to call its vendor (a path
     * such as {@code logprobs} or {@code messages[1].content[0].image_url}), or empty when it honours
     * the whole request. Asked before any model of a chain is called, so a request is refused
     * (or, when the caller allows it, sent without the field) rather than silently changed.
     */
    default java.util.Optional<String> unhonoured(ChatRequest request) {
        return java.util.Optional.empty();
    }

    /** A cheap, non-billable liveness probe. */
    default HealthAnswer health() {
        return HealthAnswer.unchecked();
    }
}
