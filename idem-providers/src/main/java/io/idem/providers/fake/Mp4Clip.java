package io.idem.providers.fake;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The fake vendor's clip: a small, deterministic ISO base media file ({@code video/mp4}) whose
 * header states the clip's duration and frame size, and whose media data derives from the prompt.
 * The same request always yields the same bytes, so tests can compare what Idem stored with what
 * the vendor made. The boxes ({@code ftyp}, {@code moov} with {@code mvhd} and one video
 * {@code trak}, {@code mdat}) are laid out as ISO/IEC 14496-12 says; the track has no decodable
 * samples, which no test needs. Stateless and thread-safe.
 */
final class Mp4Clip {
    static final String MIME_TYPE = "video/mp4";
    private static final int TIMESCALE = 1000;
    private static final int MEDIA_BYTES = 2048;

    private Mp4Clip() {}

    /** The clip for {@code prompt}, {@code seconds} long, {@code width}×{@code height}. */
    static byte[] of(String prompt, int seconds, int width, int height) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, box("ftyp", concat(ascii("isom"), u32(512), ascii("isom"), ascii("mp41"))));
        long duration = (long) seconds * TIMESCALE;
        byte[] mvhd = fullBox(
                "mvhd",
                concat(
                        u32(0),
                        u32(0),
                        u32(TIMESCALE),
                        u32((int) duration),
                        u32(0x00010000),
                        u16(0x0100),
                        new byte[10],
                        matrix(),
                        new byte[24],
                        u32(2)));
        byte[] tkhd = fullBox(
                "tkhd",
                3,
                concat(
                        u32(0),
                        u32(0),
                        u32(1),
                        u32(0),
                        u32((int) duration),
                        new byte[8],
                        u16(0),
                        u16(0),
                        u16(0),
                        u16(0),
                        matrix(),
                        u32(width << 16),
                        u32(height << 16)));
        byte[] mdhd = fullBox("mdhd", concat(u32(0), u32(0), u32(TIMESCALE), u32((int) duration), u16(0x55c4), u16(0)));
        byte[] hdlr = fullBox("hdlr", concat(u32(0), ascii("vide"), new byte[12], ascii("Idem fake video\0")));
        byte[] dinf = box("dinf", fullBox("dref", concat(u32(1), fullBox("url ", 1, new byte[0]))));
        byte[] stbl = box(
                "stbl",
                concat(
                        fullBox("stsd", u32(0)),
                        fullBox("stts", u32(0)),
                        fullBox("stsc", u32(0)),
                        fullBox("stsz", concat(u32(0), u32(0))),
                        fullBox("stco", u32(0))));
        byte[] minf = box("minf", concat(fullBox("vmhd", 1, concat(u16(0), new byte[6])), dinf, stbl));
        byte[] trak = box("trak", concat(tkhd, box("mdia", concat(mdhd, hdlr, minf))));
        write(out, box("moov", concat(mvhd, trak)));
        write(out, box("mdat", media(prompt)));
        return out.toByteArray();
    }

    private static byte[] media(String prompt) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] seed = sha.digest(prompt.getBytes(StandardCharsets.UTF_8));
            ByteArrayOutputStream out = new ByteArrayOutputStream(MEDIA_BYTES);
            while (out.size() < MEDIA_BYTES) {
                seed = sha.digest(seed);
                out.write(seed, 0, seed.length);
            }
            return out.toByteArray();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] matrix() {
        return concat(
                u32(0x00010000), u32(0), u32(0), u32(0), u32(0x00010000), u32(0), u32(0), u32(0), u32(0x40000000));
    }

    private static byte[] box(String type, byte[] payload) {
        return concat(u32(8 + payload.length), ascii(type), payload);
    }

    private static byte[] fullBox(String type, byte[] payload) {
        return fullBox(type, 0, payload);
    }

    private static byte[] fullBox(String type, int flags, byte[] payload) {
        return box(type, concat(u32(flags & 0xFFFFFF), payload));
    }

    private static byte[] u32(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    private static byte[] u16(int value) {
        return ByteBuffer.allocate(2).putShort((short) value).array();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            write(out, part);
        }
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, byte[] bytes) {
        out.write(bytes, 0, bytes.length);
    }
}
