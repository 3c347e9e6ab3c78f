package io.idem.core.domain;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a video job asks for besides its prompt, normalized: every default applied, so two requests
 * that mean the same clip have equal parameters (the idempotency hash is taken over them).
 *
 * @param durationSeconds seconds of output
 * @param resolution the short side, e.g. {@code 720p}
 * @param aspectRatio width to height, e.g. {@code 16:9}
 * @param fps frames per second, or empty for the vendor's own
 * @param seed the vendor's random seed, or empty for a random one
 * @param negativePrompt what the clip should not show
 * @param startImage the first frame (image-to-video), an http(s) URL
 * @param endImage the last frame, an http(s) URL
 * @param audio whether the clip carries a generated soundtrack
 */
public record VideoParams(
        int durationSeconds,
        String resolution,
        String aspectRatio,
        Optional<Integer> fps,
        Optional<Long> seed,
        Optional<String> negativePrompt,
        Optional<String> startImage,
        Optional<String> endImage,
        boolean audio) {

    public static final Pattern RESOLUTION = Pattern.compile("([1-9][0-9]{2,3})p");
    public static final Pattern ASPECT_RATIO = Pattern.compile("([1-9][0-9]?):([1-9][0-9]?)");

    /** No video job may ask for a longer clip; providers narrow it further. */
    public static final int MAX_DURATION_SECONDS = 120;

    public static final int MAX_FPS = 120;
    public static final int MAX_URL_CHARS = 2048;
    public static final int DEFAULT_DURATION_SECONDS = 4;
    public static final String DEFAULT_RESOLUTION = "720p";
    public static final String DEFAULT_ASPECT_RATIO = "16:9";

    /** A four-second 720p 16:9 clip without sound: what a request gets when it names nothing. */
    public static final VideoParams DEFAULTS = new VideoParams(
            DEFAULT_DURATION_SECONDS,
            DEFAULT_RESOLUTION,
            DEFAULT_ASPECT_RATIO,
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            false);

    public VideoParams {
        if (durationSeconds < 1 || durationSeconds > MAX_DURATION_SECONDS) {
            throw new IllegalArgumentException(
                    "duration must be 1.." + MAX_DURATION_SECONDS + " seconds, was " + durationSeconds);
        }
        Objects.requireNonNull(resolution, "resolution");
        if (!RESOLUTION.matcher(resolution).matches()) {
            throw new IllegalArgumentException("resolution must look like 720p, was '" + resolution + "'");
        }
        Objects.requireNonNull(aspectRatio, "aspectRatio");
        if (!ASPECT_RATIO.matcher(aspectRatio).matches()) {
            throw new IllegalArgumentException("aspect ratio must look like 16:9, was '" + aspectRatio + "'");
        }
        Objects.requireNonNull(fps, "fps");
        if (fps.isPresent() && (fps.get() < 1 || fps.get() > MAX_FPS)) {
            throw new IllegalArgumentException("fps must be 1.." + MAX_FPS + ", was " + fps.get());
        }
        Objects.requireNonNull(seed, "seed");
        if (seed.isPresent() && seed.get() < 0) {
            throw new IllegalArgumentException("seed must not be negative, was " + seed.get());
        }
        Objects.requireNonNull(negativePrompt, "negativePrompt");
        if (negativePrompt.isPresent() && negativePrompt.get().length() > JobSpec.MAX_PROMPT_CHARS) {
            throw new IllegalArgumentException("negative prompt is over " + JobSpec.MAX_PROMPT_CHARS + " characters");
        }
        Objects.requireNonNull(startImage, "startImage");
        Objects.requireNonNull(endImage, "endImage");
        if (endImage.isPresent() && startImage.isEmpty()) {
            throw new IllegalArgumentException("an end image needs a start image");
        }
    }

    /** Whether the clip starts from a given image (image-to-video). */
    public boolean imageToVideo() {
        return startImage.isPresent();
    }

    /**
     * The frame size in pixels, {@code WIDTHxHEIGHT}: the resolution is the short side, the long
     * side follows from the aspect ratio, rounded to an even number of pixels as encoders need.
     */
    public String size() {
        return frameSize(resolution, aspectRatio);
    }

    /** The frame size of {@code resolution} at {@code aspectRatio} (both already well-formed). */
    public static String frameSize(String resolution, String aspectRatio) {
        int shortSide = Integer.parseInt(resolution.substring(0, resolution.length() - 1));
        var ratio = ASPECT_RATIO.matcher(aspectRatio);
        if (!ratio.matches()) {
            throw new IllegalStateException("aspect ratio was validated: " + aspectRatio);
        }
        int w = Integer.parseInt(ratio.group(1));
        int h = Integer.parseInt(ratio.group(2));
        int longSide = (int) (Math.round(shortSide * (double) Math.max(w, h) / Math.min(w, h) / 2.0) * 2);
        return w >= h ? longSide + "x" + shortSide : shortSide + "x" + longSide;
    }
}
