package io.idem.core.provider;

import io.idem.core.domain.ImageParams;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobSpec;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a provider can do (DESIGN §6). Empty sets mean "no restriction declared".
 *
 * @param kinds generation kinds it serves ({@code image}, {@code video})
 * @param sizes exact sizes it accepts (e.g. {@code 1024x1024}); empty: any up to the max dimensions
 * @param maxWidth largest width in pixels (0: no limit)
 * @param maxHeight largest height in pixels (0: no limit)
 * @param maxN most images per request
 * @param jurisdictions where it processes data (e.g. {@code eu}, {@code us})
 * @param poll whether a call can be looked up later (reconcile)
 * @param cancel whether a call in flight can be canceled
 * @param simulate whether it obeys {@code simulate} fault-injection directives: a trait of its vendor
 *     (only the fake vendor has it), set from the vendor's descriptor, never by configuration
 * @param media the clips it makes and what single models do differently
 */
public record Capabilities(
        Set<JobKind> kinds,
        Set<String> sizes,
        int maxWidth,
        int maxHeight,
        int maxN,
        Set<String> jurisdictions,
        boolean poll,
        boolean cancel,
        boolean simulate,
        Media media) {

    /** No restriction declared, poll and cancel on, no {@code simulate}. */
    public static final Capabilities ANY =
            new Capabilities(Set.of(), Set.of(), 0, 0, 10, Set.of(), true, true, false, Media.ANY);

    /**
     * The provider's clips, and per model (by Idem model name) what it makes differently.
     *
     * @param video the clips every model makes unless its own entry says otherwise
     * @param models Idem model name → that model's own kinds and clips
     * @param imageParameters the image parameters ({@link ImageParams#ALL}) its vendor honours: a
     *     request naming another is not routed here
     */
    public record Media(VideoCapabilities video, Map<String, ModelCapabilities> models, Set<String> imageParameters) {
        public static final Media ANY = new Media(VideoCapabilities.ANY, Map.of());

        public Media {
            Objects.requireNonNull(video, "video");
            models = Map.copyOf(models);
            imageParameters = Set.copyOf(imageParameters);
        }

        /** Media honouring every image parameter. */
        public Media(VideoCapabilities video, Map<String, ModelCapabilities> models) {
            this(video, models, ImageParams.ALL);
        }
    }

    /** The prefix of the reason a provider is skipped for an image parameter it does not honour. */
    public static final String UNSUPPORTED_PARAMETER = "unsupported_parameter";

    /** Capabilities without video limits or per-model entries. */
    public Capabilities(
            Set<JobKind> kinds,
            Set<String> sizes,
            int maxWidth,
            int maxHeight,
            int maxN,
            Set<String> jurisdictions,
            boolean poll,
            boolean cancel,
            boolean simulate) {
        this(kinds, sizes, maxWidth, maxHeight, maxN, jurisdictions, poll, cancel, simulate, Media.ANY);
    }

    public Capabilities {
        kinds = Set.copyOf(kinds);
        sizes = Set.copyOf(sizes);
        jurisdictions = Set.copyOf(jurisdictions);
        if (maxN < 1) {
            throw new IllegalArgumentException("max_n must be at least 1, was " + maxN);
        }
        if (maxWidth < 0 || maxHeight < 0) {
            throw new IllegalArgumentException("max dimensions must not be negative");
        }
        Objects.requireNonNull(media, "media");
    }

    /** The same capabilities, with {@code simulate} as the vendor's descriptor says. */
    public Capabilities withSimulate(boolean accepts) {
        return new Capabilities(kinds, sizes, maxWidth, maxHeight, maxN, jurisdictions, poll, cancel, accepts, media);
    }

    /**
     * Why this provider cannot serve {@code generation} with {@code model} (the Idem model name the
     * request resolves to), or {@code null} when it can. A model's own entry wins over the provider's.
     */
    public String whyNot(String model, JobSpec.Generation generation, String jurisdiction) {
        Optional<ModelCapabilities> own = Optional.ofNullable(model).map(media.models()::get);
        Set<JobKind> served =
                own.map(ModelCapabilities::kinds).filter(k -> !k.isEmpty()).orElse(kinds);
        if (!served.isEmpty() && !served.contains(generation.kind())) {
            return "kind_unsupported";
        }
        if (generation.video().isPresent()) {
            VideoCapabilities clips = own.flatMap(ModelCapabilities::video).orElse(media.video());
            String why = clips.whyNot(generation.video().get());
            if (why != null) {
                return why;
            }
        }
        for (String parameter : generation.image().named(generation.size())) {
            if (!media.imageParameters().contains(parameter)) {
                return UNSUPPORTED_PARAMETER + ":" + parameter;
            }
        }
        if (ImageParams.AUTO_SIZE.equals(generation.size())) {
            return whyNot(generation.n(), jurisdiction);
        }
        return whyNot(generation.size(), generation.n(), jurisdiction);
    }

    private String whyNot(String size, int n, String jurisdiction) {
        if (!sizes.isEmpty() && !sizes.contains(size)) {
            return "size_unsupported";
        }
        String[] wh = size.split("x");
        if ((maxWidth > 0 && Integer.parseInt(wh[0]) > maxWidth)
                || (maxHeight > 0 && Integer.parseInt(wh[1]) > maxHeight)) {
            return "size_too_large";
        }
        return whyNot(n, jurisdiction);
    }

    private String whyNot(int n, String jurisdiction) {
        if (n > maxN) {
            return "n_too_large";
        }
        if (jurisdiction != null && !jurisdictions.contains(jurisdiction)) {
            return "jurisdiction_mismatch";
        }
        return null;
    }
}
