package io.idem.server.assets;

import io.idem.core.outcome.GenerationResult;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.StoredAsset;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Result files under {@code <data dir>/assets}. Ids and names derive from the attempt, so saving
 * the same attempt twice writes the same files (a retried settle never duplicates). Writes go to a
 * temporary file first and are moved into place atomically.
 */
public final class FileAssetStore implements AssetStore {
    private static final long MAX_BYTES = 64L * 1024 * 1024;
    private static final Map<String, String> EXTENSIONS = Map.of(
            "image/svg+xml", "svg", "image/png", "png", "image/jpeg", "jpg", "image/webp", "webp", "video/mp4", "mp4");

    private final Path root;

    public FileAssetStore(Path root) {
        this.root = root;
    }

    @Override
    public List<StoredAsset> save(UUID attemptId, GenerationResult result) throws IOException {
        List<StoredAsset> saved = new ArrayList<>();
        int index = 0;
        for (GenerationResult.Media media : result.media()) {
            saved.add(saveFile(attemptId, index++, media));
        }
        return saved;
    }

    /** Keeps item {@code index} of an attempt's result as a file (the same file when saved again). */
    StoredAsset saveFile(UUID attemptId, int index, GenerationResult.Media media) throws IOException {
        String location = attemptId.toString().substring(0, 2) + "/" + attemptId + "-" + index + "." + extension(media);
        Path target = root.resolve(location);
        if (media.isSpooled() && Files.notExists(media.file()) && Files.exists(target)) {
            // saved before: the spool file was taken over then, and saving again is harmless
            media = GenerationResult.Media.spooled(target, media.mimeType());
        }
        long size = media.size();
        if (size > MAX_BYTES) {
            throw new IOException("refusing media of " + size + " bytes");
        }
        if (!Files.isDirectory(target.getParent())) {
            Files.createDirectories(target.getParent()); // once per prefix directory
        }
        String sha256 = place(media, target);
        return new StoredAsset(assetId(attemptId, index), media.mimeType(), size, sha256, location);
    }

    /** The file extension of a media type Idem keeps; any other type is refused. */
    static String extension(GenerationResult.Media media) throws IOException {
        String extension = EXTENSIONS.get(media.mimeType());
        if (extension == null) {
            throw new IOException("refusing media of type '" + media.mimeType() + "'");
        }
        return extension;
    }

    /** An asset's id derives from its attempt and place in the result, so a second save is the same row. */
    static UUID assetId(UUID attemptId, int index) {
        return UUID.nameUUIDFromBytes((attemptId + "/" + index).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes {@code media} to {@code target} through a temporary file in the same directory, moved
     * into place atomically, hashing it as it streams (a spooled file is read once, never whole);
     * returns its SHA-256. A spooled file is deleted once copied.
     *
     * <p>The temporary file is written in place, not replaced: {@code Files.copy} with {@code
     * REPLACE_EXISTING} would delete it and create another, and on ext4 without a journal every
     * freshly deleted inode is one the next file's allocation scans past (docs/benchmarks.md).
     */
    private static String place(GenerationResult.Media media, Path target) throws IOException {
        Path temp = Files.createTempFile(target.getParent(), ".incoming-", ".tmp");
        MessageDigest sha = sha256();
        boolean moved = false;
        try (InputStream in = new DigestInputStream(media.open(), sha)) {
            try (OutputStream out = Files.newOutputStream(temp, StandardOpenOption.TRUNCATE_EXISTING)) {
                in.transferTo(out);
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            moved = true;
        } finally {
            if (!moved) {
                Files.deleteIfExists(temp);
            }
        }
        if (media.isSpooled() && !media.file().equals(target)) {
            Files.deleteIfExists(media.file());
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    @Override
    public byte[] read(String location) throws IOException {
        return Files.readAllBytes(path(location));
    }

    @Override
    public java.io.InputStream open(String location) throws IOException {
        return Files.newInputStream(path(location));
    }

    private Path path(String location) throws IOException {
        Path path = root.resolve(location).normalize();
        if (!path.startsWith(root.normalize())) {
            throw new IOException("asset location escapes the store");
        }
        return path;
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
