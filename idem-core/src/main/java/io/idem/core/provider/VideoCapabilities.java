package io.idem.core.provider;

import io.idem.core.domain.VideoParams;
import java.util.Set;

/**
 * The clips a provider (or one of its models) can make. Empty sets mean "no restriction declared".
 *
 * @param durations the exact clip lengths it makes, in seconds
 * @param maxDurationSeconds the longest clip (0: no limit)
 * @param resolutions the resolutions it makes ({@code 720p})
 * @param aspectRatios the aspect ratios it makes ({@code 16:9})
 * @param imageToVideo whether it starts a clip from a given image
 * @param audio whether it makes a soundtrack
 */
public record VideoCapabilities(
        Set<Integer> durations,
        int maxDurationSeconds,
        Set<String> resolutions,
        Set<String> aspectRatios,
        boolean imageToVideo,
        boolean audio) {

    /** No restriction declared. */
    public static final VideoCapabilities ANY = new VideoCapabilities(Set.of(), 0, Set.of(), Set.of(), true, true);

    public VideoCapabilities {
        durations = Set.copyOf(durations);
        resolutions = Set.copyOf(resolutions);
        aspectRatios = Set.copyOf(aspectRatios);
        if (maxDurationSeconds < 0) {
            throw new IllegalArgumentException("max_duration_seconds must not be negative, was " + maxDurationSeconds);
        }
        for (String resolution : resolutions) {
            if (!VideoParams.RESOLUTION.matcher(resolution).matches()) {
                throw new IllegalArgumentException("resolution must look like 720p, was '" + resolution + "'");
            }
        }
        for (String ratio : aspectRatios) {
            if (!VideoParams.ASPECT_RATIO.matcher(ratio).matches()) {
                throw new IllegalArgumentException("aspect ratio must look like 16:9, was '" + ratio + "'");
            }
        }
    }

    /** Why this clip cannot be made here, or {@code null} when it can. */
    public String whyNot(VideoParams video) {
        if (!durations.isEmpty() && !durations.contains(video.durationSeconds())) {
            return "duration_unsupported";
        }
        if (maxDurationSeconds > 0 && video.durationSeconds() > maxDurationSeconds) {
            return "duration_too_long";
        }
        if (!resolutions.isEmpty() && !resolutions.contains(video.resolution())) {
            return "resolution_unsupported";
        }
        if (!aspectRatios.isEmpty() && !aspectRatios.contains(video.aspectRatio())) {
            return "aspect_ratio_unsupported";
        }
        if (video.imageToVideo() && !imageToVideo) {
            return "image_to_video_unsupported";
        }
        if (video.audio() && !audio) {
            return "audio_unsupported";
        }
        return null;
    }
}
