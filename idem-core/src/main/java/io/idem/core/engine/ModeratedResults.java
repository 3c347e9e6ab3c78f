package io.idem.core.engine;

import io.idem.core.domain.Job;
import io.idem.core.moderation.ModerationPolicy;
import io.idem.core.moderation.ModerationVerdict;
import io.idem.core.moderation.OutputModerator;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.StoredAsset;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Output moderation between a confirmed, stored result and its delivery: for a moderated lane, the
 * stored media and the prompt go to the moderator; a flagged result (or one no verdict could be had
 * for) is withheld: the job fails ({@code output_flagged} / {@code moderation_unavailable}, class
 * {@code policy}), the attempt stays billed as the vendor billed it, and the result is kept for an
 * operator. Thread-safe.
 */
final class ModeratedResults {
    private static final Logger log = LoggerFactory.getLogger(ModeratedResults.class);

    private final ModerationPolicy policy;
    private final AssetStore assets;

    ModeratedResults(ModerationPolicy policy, AssetStore assets) {
        this.policy = policy;
        this.assets = assets;
    }

    /** The verdict on {@code saved} when the job's lane is moderated; empty when it is not. */
    Optional<ModerationVerdict> check(Job job, List<StoredAsset> saved) {
        return policy.forLane(job.spec().lane()).map(moderator -> verdict(moderator, job, saved));
    }

    private ModerationVerdict verdict(OutputModerator moderator, Job job, List<StoredAsset> saved) {
        List<OutputModerator.Media> media = new ArrayList<>();
        for (StoredAsset asset : saved) {
            try {
                // an inline result is not in the database before the settle that this verdict is part of
                byte[] bytes = asset.inline().isPresent() ? asset.inline().get() : assets.read(asset.location());
                media.add(new OutputModerator.Media(asset.mimeType(), bytes));
            } catch (IOException e) {
                log.error("could not read asset {} of job {} for moderation", asset.id(), job.id(), e);
                return ModerationVerdict.unavailable("storage", "the stored result could not be read");
            }
        }
        ModerationVerdict verdict = moderator.check(
                new OutputModerator.Input(job.spec().kind().wire(), job.spec().prompt(), media));
        if (!verdict.delivers()) {
            log.info("job {}: result withheld by {} ({})", job.id(), verdict.moderator(), verdict.withheldCode());
        }
        return verdict;
    }

    /** The job's move once the verdict is in: delivered as it is, or failed with the result withheld. */
    static JobMove move(ModerationVerdict verdict, JobMove.Succeed kept) {
        if (verdict.delivers()) {
            return kept;
        }
        String message = verdict.unavailable()
                ? "the result was withheld: output moderation could not check it"
                : "the result was withheld by output moderation";
        return new JobMove.Fail(verdict.withheldCode(), message, "policy", kept.assets());
    }
}
