package io.idem.server.assets;

import io.idem.core.outcome.GenerationResult;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.StoredAsset;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
            String extension = EXTENSIONS.get(media.mimeType());
            if (extension == null) {
                throw new IOException("refusing media of type '" + media.mimeType() + "'");
            }
            String location = attemptId.toString().substring(0, 2) + "/" + attemptId + "-" + index + "." + extension;
            Path target = root.resolve(location);
            if (media.isSpooled() && Files.notExists(media.file()) && Files.exists(target)) {
                // saved before: the spool file was taken over then, and saving again is harmless
                media = GenerationResult.Media.spooled(target, media.mimeType());
            }
            long size = media.size();
            if (size > MAX_BYTES) {
                throw new IOException("refusing media of " + size + " bytes");
            }
            UUID id = UUID.nameUUIDFromBytes((attemptId + "/" + index).getBytes(StandardCharsets.UTF_8));
            Files.createDirectories(target.getParent());
            String sha256 = place(media, target);
            saved.add(new StoredAsset(id, media.mimeType(), size, sha256, location));
            index++;
        }
        return saved;
    }

    /**
     * Writes {@code media} to {@code target} through a temporary file in the same directory, moved
     * into place atomically, hashing it as it streams (a spooled file is read once, never whole);
     * returns its SHA-256. A spooled file is deleted once copied.
     */
    private static String place(GenerationResult.Media media, Path target) throws IOException {
        Path temp = Files.createTempFile(target.getParent(), ".incoming-", ".tmp");
        MessageDigest sha = sha256();
        try (InputStream in = new DigestInputStream(media.open(), sha)) {
            Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
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

    @Override
    public long size(String location) throws IOException {
        return Files.size(path(location));
    }

    private Path path(String location) throws IOException {
        Path path = root.resolve(location).normalize();
        if (!path.startsWith(root.normalize())) {
            throw new IOException("asset location escapes the store");
        }
        return path;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
