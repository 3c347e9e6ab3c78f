package io.idem.core.provider;

import io.idem.core.domain.JobKind;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What one model of a provider can do, where it differs from the provider as a whole
 * ({@code capabilities.models.<name>}). Empty means "as the provider".
 *
 * @param kinds the kinds this model makes
 * @param video the clips this model makes
 */
public record ModelCapabilities(Set<JobKind> kinds, Optional<VideoCapabilities> video) {
    public ModelCapabilities {
        kinds = Set.copyOf(kinds);
        Objects.requireNonNull(video, "video");
    }
}
