package io.idem.core.domain;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What an image job asks for besides its prompt, size and count, as the client named it: nothing
 * is defaulted, so a request that names none of these means what it always meant (each vendor's
 * own defaults) and hashes as it always did.
 *
 * @param quality {@code auto|low|medium|high|standard|hd}
 * @param style {@code vivid|natural}
 * @param background {@code auto|transparent|opaque}
 * @param outputFormat {@code png|jpeg|webp}
 * @param outputCompression 0..100, only with {@code jpeg} or {@code webp}
 * @param moderation {@code auto|low}
 * @param providerOptions a JSON object, canonical, passed through to the vendor as it is
 * @param inputs an edit's images and its mask ({@code POST /v1/images/edits}); empty: a generation
 */
public record ImageParams(
        Optional<String> quality,
        Optional<String> style,
        Optional<String> background,
        Optional<String> outputFormat,
        Optional<Integer> outputCompression,
        Optional<String> moderation,
        Optional<String> providerOptions,
        List<InputImage> inputs) {

    public static final String QUALITY = "quality";
    public static final String STYLE = "style";
    public static final String BACKGROUND = "background";
    public static final String OUTPUT_FORMAT = "output_format";
    public static final String OUTPUT_COMPRESSION = "output_compression";
    public static final String MODERATION = "moderation";
    public static final String PROVIDER_OPTIONS = "provider_options";
    /** An edit's images (its mask goes with them): a provider honours it when it edits. */
    public static final String IMAGE = "image";
    /** Not a field of its own: the name a capability gives {@code size: "auto"}. */
    public static final String SIZE_AUTO = "size_auto";

    public static final List<String> QUALITIES = List.of("auto", "low", "medium", "high", "standard", "hd");
    public static final List<String> STYLES = List.of("vivid", "natural");
    public static final List<String> BACKGROUNDS = List.of("auto", "transparent", "opaque");
    public static final List<String> OUTPUT_FORMATS = List.of("png", "jpeg", "webp");
    public static final List<String> MODERATIONS = List.of("auto", "low");
    /** Every parameter a provider may or may not honour. */
    public static final Set<String> ALL = Set.of(
            QUALITY,
            STYLE,
            BACKGROUND,
            OUTPUT_FORMAT,
            OUTPUT_COMPRESSION,
            MODERATION,
            PROVIDER_OPTIONS,
            SIZE_AUTO,
            IMAGE);

    /** The longest {@code provider_options} may be, as canonical JSON. */
    public static final int MAX_PROVIDER_OPTIONS_CHARS = 8192;

    public static final String AUTO_SIZE = "auto";

    /** Nothing named. */
    public static final ImageParams NONE = new ImageParams(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            List.of());

    /** Parameters of a generation (no input images). */
    public ImageParams(
            Optional<String> quality,
            Optional<String> style,
            Optional<String> background,
            Optional<String> outputFormat,
            Optional<Integer> outputCompression,
            Optional<String> moderation,
            Optional<String> providerOptions) {
        this(quality, style, background, outputFormat, outputCompression, moderation, providerOptions, List.of());
    }

    public ImageParams {
        oneOf(QUALITY, quality, QUALITIES);
        oneOf(STYLE, style, STYLES);
        oneOf(BACKGROUND, background, BACKGROUNDS);
        oneOf(OUTPUT_FORMAT, outputFormat, OUTPUT_FORMATS);
        oneOf(MODERATION, moderation, MODERATIONS);
        Objects.requireNonNull(outputCompression, OUTPUT_COMPRESSION);
        if (outputCompression.isPresent()) {
            int c = outputCompression.get();
            if (c < 0 || c > 100) {
                throw new IllegalArgumentException(OUTPUT_COMPRESSION + " must be 0..100, was " + c);
            }
            if (!outputFormat.map(f -> !f.equals("png")).orElse(false)) {
                throw new IllegalArgumentException(OUTPUT_COMPRESSION + " goes with output_format jpeg or webp");
            }
        }
        Objects.requireNonNull(providerOptions, PROVIDER_OPTIONS);
        if (providerOptions.isPresent()
                && (!providerOptions.get().startsWith("{")
                        || providerOptions.get().length() > MAX_PROVIDER_OPTIONS_CHARS)) {
            throw new IllegalArgumentException(PROVIDER_OPTIONS + " must be a JSON object of at most "
                    + MAX_PROVIDER_OPTIONS_CHARS + " characters");
        }
    }

    /** The same parameters, editing {@code images}. */
    public ImageParams editing(List<InputImage> images) {
        return new ImageParams(
                quality, style, background, outputFormat, outputCompression, moderation, providerOptions, images);
    }

    /** Whether this is an edit (it starts from input images). */
    public boolean edit() {
        return inputs.stream().anyMatch(i -> !i.mask());
    }

    /** The edit's mask, if it has one. */
    public Optional<InputImage> mask() {
        return inputs.stream().filter(InputImage::mask).findFirst();
    }

    /** The images the edit starts from. */
    public List<InputImage> images() {
        return inputs.stream().filter(i -> !i.mask()).toList();
    }

    private static void oneOf(String field, Optional<String> value, List<String> allowed) {
        Objects.requireNonNull(value, field);
        if (value.isPresent() && !allowed.contains(value.get())) {
            throw new IllegalArgumentException(field + " must be one of " + allowed + ", was '" + value.get() + "'");
        }
    }

    /**
     * The named parameters under their request field names, in a fixed order: strings, the
     * compression a number, {@code provider_options} its canonical JSON text.
     */
    public Map<String, Object> values() {
        Map<String, Object> out = new LinkedHashMap<>();
        quality.ifPresent(v -> out.put(QUALITY, v));
        style.ifPresent(v -> out.put(STYLE, v));
        background.ifPresent(v -> out.put(BACKGROUND, v));
        outputFormat.ifPresent(v -> out.put(OUTPUT_FORMAT, v));
        outputCompression.ifPresent(v -> out.put(OUTPUT_COMPRESSION, v));
        moderation.ifPresent(v -> out.put(MODERATION, v));
        providerOptions.ifPresent(v -> out.put(PROVIDER_OPTIONS, v));
        return out;
    }

    /** The parameters this request names (with {@link #SIZE_AUTO} when {@code size} is {@code auto}). */
    public Set<String> named(String size) {
        Set<String> out = new LinkedHashSet<>(values().keySet());
        if (edit()) {
            out.add(IMAGE);
        }
        if (AUTO_SIZE.equals(size)) {
            out.add(SIZE_AUTO);
        }
        return out;
    }

    /** Whether nothing is named. */
    public boolean isEmpty() {
        return equals(NONE);
    }
}
