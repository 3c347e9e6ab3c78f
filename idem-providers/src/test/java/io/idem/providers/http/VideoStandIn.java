package io.idem.providers.http;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import io.idem.core.domain.VideoParams;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.ReconcileAnswer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/** What the video contract tests of every vendor share: a clip to serve, a full request, a per-second price. */
public final class VideoStandIn {
    /** The start of an MP4 file (an {@code ftyp} box) and some bytes: what a media host serves. */
    public static final byte[] MP4 =
            ("\0\0\0\u0018ftypisom\0\0\u0002\0isomiso2mp41" + "x".repeat(40_000)).getBytes(StandardCharsets.ISO_8859_1);

    /** Ten cents a second of output. */
    public static final BigDecimal PER_SECOND = new BigDecimal("0.10");

    /** Six seconds of 1080p 9:16 from a first and last frame, with sound, a seed and a negative prompt. */
    public static final VideoParams CLIP = new VideoParams(
            6,
            "1080p",
            "9:16",
            Optional.of(24),
            Optional.of(42L),
            Optional.of("blurry"),
            Optional.of("https://img.example/first.png"),
            Optional.of("https://img.example/last.png"),
            true);

    private VideoStandIn() {}

    public static ResponseDefinitionBuilder mp4() {
        return mp4(MP4);
    }

    /** A media host serving {@code clip}. */
    public static ResponseDefinitionBuilder mp4(byte[] clip) {
        return aResponse()
                .withStatus(200)
                .withHeader("Content-Type", "video/mp4")
                .withBody(clip);
    }

    /** A clip no other test serves, so its spool file can be told apart from any other in the temp directory. */
    public static byte[] uniqueMp4() {
        return ("\0\0\0\u0018ftypisom" + UUID.randomUUID()).getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * The spool files ({@code idem-media-*.part}) in the temporary directory that hold {@code clip}:
     * none once whoever dropped the clip deleted its file. Other processes' files never match.
     */
    public static List<Path> spoolFilesHolding(byte[] clip) {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try (Stream<Path> files = Files.list(tmp)) {
            return files.filter(f -> f.getFileName().toString().startsWith("idem-media-"))
                    .filter(f -> holds(f, clip))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean holds(Path file, byte[] clip) {
        try {
            return Files.size(file) == clip.length && Arrays.equals(Files.readAllBytes(file), clip);
        } catch (IOException e) {
            return false; // gone meanwhile, or not ours to read
        }
    }

    /** Deletes the files a test's delivered result was spooled to (no asset store takes them over here). */
    public static void discard(Outcome outcome) {
        if (outcome instanceof Outcome.Confirmed confirmed) {
            confirmed.result().discard();
        }
    }

    /** As {@link #discard(Outcome)}, for a reconcile that found the result. */
    public static void discard(ReconcileAnswer answer) {
        if (answer instanceof ReconcileAnswer.Delivered delivered) {
            delivered.outcome().result().discard();
        }
    }

    /** A provider of {@code adapter} priced {@link #PER_SECOND}, its key in {@code keyVariable}. */
    public static ProviderSettings perSecond(String adapter, URI baseUrl, String keyVariable, String model) {
        return new ProviderSettings(
                adapter,
                adapter,
                new ProviderSettings.Endpoint(baseUrl, Optional.of(keyVariable), Duration.ofSeconds(2)),
                model,
                Map.of(),
                new PricingModel.PerOutputSecond(PER_SECOND),
                true,
                Capabilities.ANY,
                Optional.empty());
    }

    /** The delivered clip's bytes, read from the file it was spooled to. */
    public static byte[] spooledBytes(GenerationResult.Media media) {
        if (!media.isSpooled()) {
            throw new AssertionError("the clip was held in memory, not spooled to disk");
        }
        try (InputStream in = media.open()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
