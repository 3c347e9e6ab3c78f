package io.idem.server.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.VideoParams;
import io.idem.server.http.ApiError;
import io.idem.server.http.Json;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The video fields of a job request, read into normalized {@link VideoParams}: a {@code size} and
 * the {@code resolution} with {@code aspect_ratio} it stands for are one request, so both hash
 * alike. Every bad value is a 400 naming its field.
 */
final class VideoRequests {
    static final String DURATION = "duration_seconds";
    static final String RESOLUTION = "resolution";
    static final String ASPECT_RATIO = "aspect_ratio";
    static final String FPS = "fps";
    static final String SEED = "seed";
    static final String NEGATIVE_PROMPT = "negative_prompt";
    static final String START_IMAGE = "start_image";
    static final String END_IMAGE = "end_image";
    static final String AUDIO = "audio";

    /** The fields only a video request may carry. */
    static final List<String> FIELDS =
            List.of(DURATION, RESOLUTION, ASPECT_RATIO, FPS, SEED, NEGATIVE_PROMPT, START_IMAGE, END_IMAGE, AUDIO);

    private static final Pattern SIZE = Pattern.compile("([1-9][0-9]{1,4})x([1-9][0-9]{1,4})");

    private VideoRequests() {}

    /** A video request's parameters; for an image request, empty (and a video field is refused). */
    static Optional<VideoParams> read(JsonNode body, JobKind kind) {
        if (kind != JobKind.VIDEO) {
            for (String field : FIELDS) {
                if (body.has(field)) {
                    throw ApiError.badRequest(
                            "invalid_" + field, field + " applies to video jobs only (kind is " + kind + ")");
                }
            }
            return Optional.empty();
        }
        Frame frame = frame(body);
        int duration = JobRequests.integer(
                body, DURATION, VideoParams.DEFAULT_DURATION_SECONDS, 1, VideoParams.MAX_DURATION_SECONDS);
        Optional<Integer> fps = present(body, FPS).map(n -> JobRequests.integer(body, FPS, 0, 1, VideoParams.MAX_FPS));
        Optional<Long> seed = present(body, SEED).map(n -> seed(n));
        Optional<String> negative = present(body, NEGATIVE_PROMPT).map(n -> negativePrompt(n));
        Optional<String> start = present(body, START_IMAGE).map(n -> imageUrl(START_IMAGE, n));
        Optional<String> end = present(body, END_IMAGE).map(n -> imageUrl(END_IMAGE, n));
        if (end.isPresent() && start.isEmpty()) {
            throw ApiError.badRequest("invalid_" + END_IMAGE, END_IMAGE + " needs a " + START_IMAGE);
        }
        boolean audio = present(body, AUDIO).map(VideoRequests::audio).orElse(false);
        return Optional.of(new VideoParams(
                duration, frame.resolution(), frame.aspectRatio(), fps, seed, negative, start, end, audio));
    }

    /** Everything of a video that defines it, for the idempotency hash (nothing for an image job). */
    static Map<String, Object> canonical(JobSpec spec) {
        Map<String, Object> out = new TreeMap<>();
        spec.video().ifPresent(v -> {
            out.put(DURATION, v.durationSeconds());
            out.put(RESOLUTION, v.resolution());
            out.put(ASPECT_RATIO, v.aspectRatio());
            v.fps().ifPresent(fps -> out.put(FPS, fps));
            v.seed().ifPresent(seed -> out.put(SEED, seed));
            v.negativePrompt().ifPresent(text -> out.put(NEGATIVE_PROMPT, text));
            v.startImage().ifPresent(url -> out.put(START_IMAGE, url));
            v.endImage().ifPresent(url -> out.put(END_IMAGE, url));
            out.put(AUDIO, v.audio());
        });
        return out;
    }

    private record Frame(String resolution, String aspectRatio) {}

    /** {@code size}, or {@code resolution} and {@code aspect_ratio}: one way, not both. */
    private static Frame frame(JsonNode body) {
        String size = Json.text(body, "size", null);
        String resolution = text(body, RESOLUTION, "720p");
        String ratio = text(body, ASPECT_RATIO, "16:9");
        if (size == null) {
            if (!VideoParams.RESOLUTION.matcher(resolution).matches()) {
                throw ApiError.badRequest(
                        "invalid_" + RESOLUTION, RESOLUTION + " must look like 720p, was '" + resolution + "'");
            }
            if (!VideoParams.ASPECT_RATIO.matcher(ratio).matches()) {
                throw ApiError.badRequest(
                        "invalid_" + ASPECT_RATIO, ASPECT_RATIO + " must look like 16:9, was '" + ratio + "'");
            }
            return new Frame(resolution, ratio);
        }
        if (body.has(RESOLUTION) || body.has(ASPECT_RATIO)) {
            throw ApiError.badRequest(
                    "invalid_size", "give size or resolution with aspect_ratio, not both (size was '" + size + "')");
        }
        Matcher wh = SIZE.matcher(size);
        if (!wh.matches()) {
            throw ApiError.badRequest("invalid_size", "size must look like 1280x720, was '" + size + "'");
        }
        int w = Integer.parseInt(wh.group(1));
        int h = Integer.parseInt(wh.group(2));
        int gcd = gcd(w, h);
        Frame frame = new Frame(Math.min(w, h) + "p", (w / gcd) + ":" + (h / gcd));
        if (!VideoParams.ASPECT_RATIO.matcher(frame.aspectRatio()).matches()
                || !VideoParams.RESOLUTION.matcher(frame.resolution()).matches()
                || !VideoParams.frameSize(frame.resolution(), frame.aspectRatio())
                        .equals(size)) {
            throw ApiError.badRequest(
                    "invalid_size",
                    "size '" + size + "' is no common video frame; give resolution and aspect_ratio instead");
        }
        return frame;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private static Optional<JsonNode> present(JsonNode body, String field) {
        JsonNode node = body.get(field);
        return node == null || node.isNull() ? Optional.empty() : Optional.of(node);
    }

    private static String text(JsonNode body, String field, String fallback) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return fallback;
        }
        if (!node.isTextual()) {
            throw ApiError.badRequest("invalid_" + field, field + " must be a string, was " + node);
        }
        return node.textValue();
    }

    private static long seed(JsonNode node) {
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() < 0) {
            throw ApiError.badRequest("invalid_" + SEED, SEED + " must be a whole number 0 or more, was " + node);
        }
        return node.asLong();
    }

    private static String negativePrompt(JsonNode node) {
        if (!node.isTextual() || node.textValue().isBlank() || node.textValue().length() > JobSpec.MAX_PROMPT_CHARS) {
            throw ApiError.badRequest(
                    "invalid_" + NEGATIVE_PROMPT,
                    NEGATIVE_PROMPT + " must be text of 1.." + JobSpec.MAX_PROMPT_CHARS + " characters");
        }
        return node.textValue();
    }

    private static boolean audio(JsonNode node) {
        if (!node.isBoolean()) {
            throw ApiError.badRequest("invalid_" + AUDIO, AUDIO + " must be true or false, was " + node);
        }
        return node.booleanValue();
    }

    /** An absolute http(s) URL the vendor can fetch the frame from. */
    private static String imageUrl(String field, JsonNode node) {
        String problem = field + " must be an http(s) URL of at most " + VideoParams.MAX_URL_CHARS + " characters";
        if (!node.isTextual() || node.textValue().length() > VideoParams.MAX_URL_CHARS) {
            throw ApiError.badRequest("invalid_" + field, problem);
        }
        try {
            URI uri = new URI(node.textValue());
            if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                throw ApiError.badRequest("invalid_" + field, problem);
            }
            return uri.toString();
        } catch (java.net.URISyntaxException e) {
            throw ApiError.badRequest("invalid_" + field, problem);
        }
    }
}
