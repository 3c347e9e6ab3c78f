package io.idem.providers.vendor;

import io.idem.core.domain.JobKind;
import io.idem.core.provider.VideoCapabilities;
import java.util.Set;

/**
 * What a vendor's API can do, whatever a provider's configuration narrows (DESIGN §6 for the
 * per-provider {@code capabilities}). Jobs and chat are told apart by the descriptor's factories.
 *
 * @param kinds the job kinds its job adapter serves ({@code image}, {@code video}); empty for a
 *     chat-only vendor
 * @param poll a call can be followed by the vendor's own id (reconcile)
 * @param cancel a call in flight can be canceled
 * @param lookup a call whose answer was lost can be found again by our reference
 * @param streaming its chat side streams tokens as the vendor sends them
 * @param simulate it obeys {@code simulate} fault-injection directives (the fake vendor only)
 * @param callsOut it calls a vendor over the network, so it can be unwell and gets health checks
 *     (the static tier answers from memory)
 * @param statesCost its answer states what the call cost, which wins over the configured price
 * @param video the clips its API can make, what a provider gets when its configuration declares no
 *     {@code capabilities.video} (so routing skips it for a clip it cannot make)
 * @param imageParameters the image parameters ({@code ImageParams.ALL}) its job adapter forwards;
 *     a job naming another is never routed to its providers
 */
public record VendorCapabilities(
        Set<JobKind> kinds,
        boolean poll,
        boolean cancel,
        boolean lookup,
        boolean streaming,
        boolean simulate,
        boolean callsOut,
        boolean statesCost,
        VideoCapabilities video,
        Set<String> imageParameters) {

    public VendorCapabilities {
        kinds = Set.copyOf(kinds);
        java.util.Objects.requireNonNull(video, "video");
        imageParameters = Set.copyOf(imageParameters);
    }

    /** A vendor whose clips are those of {@code video}, forwarding no image parameter. */
    public VendorCapabilities(
            Set<JobKind> kinds,
            boolean poll,
            boolean cancel,
            boolean lookup,
            boolean streaming,
            boolean simulate,
            boolean callsOut,
            boolean statesCost,
            VideoCapabilities video) {
        this(kinds, poll, cancel, lookup, streaming, simulate, callsOut, statesCost, video, Set.of());
    }

    /** A vendor whose clips are not narrowed (or that makes none), forwarding no image parameter. */
    public VendorCapabilities(
            Set<JobKind> kinds,
            boolean poll,
            boolean cancel,
            boolean lookup,
            boolean streaming,
            boolean simulate,
            boolean callsOut,
            boolean statesCost) {
        this(kinds, poll, cancel, lookup, streaming, simulate, callsOut, statesCost, VideoCapabilities.ANY);
    }

    /** The same vendor, forwarding {@code parameters}. */
    public VendorCapabilities forwarding(Set<String> parameters) {
        return new VendorCapabilities(
                kinds, poll, cancel, lookup, streaming, simulate, callsOut, statesCost, video, parameters);
    }

    /** A chat-only vendor reached over the network that streams. */
    public static VendorCapabilities remoteChat() {
        return new VendorCapabilities(Set.of(), false, false, false, true, false, true, false);
    }
}
