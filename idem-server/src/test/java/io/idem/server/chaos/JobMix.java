package io.idem.server.chaos;

import java.util.List;
import java.util.Random;

/**
 * The seeded mix of jobs the chaos run submits: what each fake vendor is told to act out, and the
 * call timeout. Mostly {@code ok}; every fault the fake knows appears on the primary, and the backup
 * sees enough faults that failover lands on trouble too. Same seed, same jobs.
 */
final class JobMix {
    private record Weighted(String mode, int weight) {}

    private static final List<Weighted> PRIMARY = List.of(
            new Weighted("ok", 36),
            new Weighted("http_503", 5),
            new Weighted("http_429", 3),
            new Weighted("refuse", 5),
            new Weighted("malformed", 5),
            new Weighted("user_error", 4),
            new Weighted("policy", 4),
            new Weighted("auth", 4),
            new Weighted("timeout", 6),
            new Weighted("disconnect", 6),
            new Weighted("lost", 7),
            new Weighted("slow", 15));

    private static final List<Weighted> BACKUP = List.of(
            new Weighted("ok", 70),
            new Weighted("http_503", 5),
            new Weighted("timeout", 5),
            new Weighted("disconnect", 5),
            new Weighted("lost", 5),
            new Weighted("slow", 10));

    private final Random random;

    JobMix(long seed) {
        this.random = new Random(seed);
    }

    /** One job request body; {@code index} only names the prompt. */
    String next(int index) {
        String primary = pick(PRIMARY);
        String backup = pick(BACKUP);
        int timeout = 1 + random.nextInt(2);
        return """
                {"prompt": "chaos job %d", "timeout": %d, "simulate": {"primary": "%s", "backup": "%s"}}
                """.formatted(index, timeout, primary, backup);
    }

    private String pick(List<Weighted> table) {
        int total = table.stream().mapToInt(Weighted::weight).sum();
        int roll = random.nextInt(total);
        for (Weighted w : table) {
            roll -= w.weight();
            if (roll < 0) {
                return w.mode().equals("slow") ? "slow:" + (200 + random.nextInt(1301)) : w.mode();
            }
        }
        throw new IllegalStateException("weights exhausted");
    }
}
