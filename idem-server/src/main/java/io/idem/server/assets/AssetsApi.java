package io.idem.server.assets;

import io.idem.core.spi.AssetStore;
import io.idem.core.spi.JobReads;
import io.idem.server.http.ApiError;
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Feature;
import io.idem.server.http.Ids;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.UUID;

/**
 * {@code GET /v1/assets/{id}}: a result file, by signed link or by the owner's key, streamed from the
 * store; a {@code Range} request is answered {@code 206}.
 */
public final class AssetsApi implements Feature {
    private final Auth auth;
    private final JobReads reads;
    private final AssetStore assets;
    private final AssetLinks links;

    public AssetsApi(Auth auth, JobReads reads, AssetStore assets, AssetLinks links) {
        this.auth = auth;
        this.reads = reads;
        this.assets = assets;
        this.links = links;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.get("/v1/assets/{id}", this::get);
    }

    private void get(Context ctx) {
        UUID id = Ids.pathId(ctx, "asset");
        boolean signed = links.verify(id, ctx.queryParam("sig"));
        Caller caller = signed ? null : auth.require(ctx);
        JobReads.AssetFile file = reads.asset(id).orElseThrow(() -> ApiError.notFound("asset"));
        if (caller != null
                && caller.ownerScope() != null
                && !caller.ownerScope().equals(file.owner())) {
            throw ApiError.notFound("asset");
        }
        boolean admin = caller != null && caller.ownerScope() == null;
        if (!file.delivered() && !admin) {
            throw ApiError.notFound("asset"); // withheld from the client, kept for an operator
        }
        try {
            ctx.header("Cache-Control", "private, max-age=86400, immutable")
                    .header("X-Content-Type-Options", "nosniff")
                    .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
            // streamed, never read whole: a video player asks for ranges of the clip
            ByteRange.serve(ctx, assets.open(file.location()), file.mimeType(), file.bytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
