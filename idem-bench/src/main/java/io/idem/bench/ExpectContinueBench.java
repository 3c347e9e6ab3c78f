package io.idem.bench;

import io.idem.postgres.TestDatabases;
import java.time.Duration;
import java.util.Map;

/**
 * Chat calls through Idem to the in-process fake vendor, with and without {@code Expect:
 * 100-continue} on the upstream call (issue 16): two fake providers on one node, {@code expect}
 * with {@code chat_expect_continue: true} serving {@code fake-chat-a} and {@code plain} with
 * {@code false} serving {@code fake-chat-b}, measured in alternating rounds (ABBA) so that the
 * machine's noise falls on both alike. One client shows the latency of a lone call, sixteen the throughput.
 * Only 127.0.0.1 is used.
 *
 * <p>Run: {@code idem-bench/run expect [seconds per round] [rounds]}.
 */
public final class ExpectContinueBench {
    private static final String PROVIDERS = """
            {"providers": {
               "expect": {"adapter": "fake", "chat_expect_continue": true, "chat_models": ["fake-chat-a"]},
               "plain": {"adapter": "fake", "chat_expect_continue": false, "chat_models": ["fake-chat-b"]}}}""";

    private ExpectContinueBench() {}

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        try (BenchNode node =
                BenchNode.start(TestDatabases.freshUrl(), Map.of("IDEM_ROLE", "api", "PROVIDERS_JSON", PROVIDERS))) {
            String idem = node.server().baseUrl() + "/v1/chat/completions";
            run(new ChatBench(), idem, Duration.ofSeconds(seconds), rounds);
        }
        System.exit(0);
    }

    private static void run(ChatBench bench, String idem, Duration limit, int rounds) throws InterruptedException {
        String with = ChatBench.BODY.formatted("fake-chat-a", "");
        String without = ChatBench.BODY.formatted("fake-chat-b", "");
        for (int warm = 0; warm < 2; warm++) {
            bench.saturate(idem, BenchNode.ADMIN_KEY, with, 8, Duration.ofSeconds(5));
            bench.saturate(idem, BenchNode.ADMIN_KEY, without, 8, Duration.ofSeconds(5));
        }
        for (int clients : new int[] {1, 16}) {
            System.out.printf(
                    "%n## Chat through Idem, Expect on and off: %d client(s), %d rounds of %d s%n%n",
                    clients, rounds, limit.toSeconds());
            System.out.println("| path | req/s | p50 ms | p99 ms | errors |");
            System.out.println("|---|---|---|---|---|");
            long withOk = 0;
            long withoutOk = 0;
            for (int round = 1; round <= rounds; round++) {
                // ABBA order: a machine that warms up or calms down during a round favours neither.
                boolean onFirst = round % 2 == 1;
                ChatBench.Load first =
                        bench.saturate(idem, BenchNode.ADMIN_KEY, onFirst ? with : without, clients, limit);
                ChatBench.Load second =
                        bench.saturate(idem, BenchNode.ADMIN_KEY, onFirst ? without : with, clients, limit);
                ChatBench.Load on = onFirst ? first : second;
                ChatBench.Load off = onFirst ? second : first;
                ChatBench.print("round " + round + ", with Expect: 100-continue", on);
                ChatBench.print("round " + round + ", without Expect", off);
                withOk += on.ok();
                withoutOk += off.ok();
            }
            System.out.printf("%nthroughput without / with Expect: %.2f%n", (double) withoutOk / withOk);
        }
    }
}
