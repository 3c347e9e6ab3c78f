package io.idem.core.status;

import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Combines standings. {@link #service} rolls up the providers that serve one service: operational
 * when all are, down when none can serve, degraded in between. {@link #worst} combines the
 * reasons one provider stands where it does: its worst reason decides.
 *
 * <p>An empty {@code since} counts as "before every record": it never makes a standing later.
 */
public final class StatusRollup {
    private StatusRollup() {}

    /** The standing of a service from those of the providers serving it (none: down). */
    public static Standing service(Collection<Standing> parts) {
        if (parts.isEmpty()) {
            return new Standing(StatusLevel.DOWN, Optional.empty());
        }
        if (parts.stream().allMatch(p -> p.level() == StatusLevel.OPERATIONAL)) {
            return new Standing(StatusLevel.OPERATIONAL, latest(parts));
        }
        if (parts.stream().allMatch(p -> p.level() == StatusLevel.DOWN)) {
            return new Standing(StatusLevel.DOWN, latest(parts));
        }
        // Degraded holds while some part is not operational and some part is not down: since the
        // later of the earliest moments that each has held without a break.
        Optional<Instant> notOperational = earliest(parts, p -> p.level() != StatusLevel.OPERATIONAL);
        Optional<Instant> notDown = earliest(parts, p -> p.level() != StatusLevel.DOWN);
        return new Standing(StatusLevel.DEGRADED, later(notOperational, notDown));
    }

    /** The standing of one provider from its reasons (none: operational as long as records go). */
    public static Standing worst(Collection<Standing> reasons) {
        StatusLevel level = reasons.stream().map(Standing::level).reduce(StatusLevel.OPERATIONAL, StatusLevel::worst);
        if (level == StatusLevel.DOWN) {
            // Any reason to be down keeps it down: since the earliest of them.
            return new Standing(level, earliest(reasons, r -> r.level() == StatusLevel.DOWN));
        }
        // Nothing changed since the latest change of any reason.
        return new Standing(level, latest(reasons));
    }

    private static Optional<Instant> latest(Collection<Standing> parts) {
        return parts.stream().map(Standing::since).flatMap(Optional::stream).max(Comparator.naturalOrder());
    }

    /** The earliest since of the matching parts; empty if one of them has none. */
    private static Optional<Instant> earliest(Collection<Standing> parts, Predicate<Standing> which) {
        var matching = parts.stream().filter(which).toList();
        if (matching.stream().anyMatch(p -> p.since().isEmpty())) {
            return Optional.empty();
        }
        return matching.stream().map(p -> p.since().orElseThrow()).min(Comparator.naturalOrder());
    }

    private static Optional<Instant> later(Optional<Instant> a, Optional<Instant> b) {
        if (a.isEmpty()) {
            return b;
        }
        if (b.isEmpty()) {
            return a;
        }
        return a.get().isAfter(b.get()) ? a : b;
    }
}
