package io.idem.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The load of {@code idem-bench/ab/run} against a node (or a vendor) that runs elsewhere, driven
 * line by line from standard input so that one warm client serves a whole procedure ({@link
 * HttpLoad}). The target is {@code jobs} (closed-loop {@code POST /v1/jobs} with a fresh {@code
 * Idempotency-Key} each; the default) or {@code chat:MODEL} (chat completions for {@code MODEL}).
 * Commands: {@code run SECONDS [CLIENTS]} (load for that long), {@code send N} (N requests, however
 * long they take), {@code paced SECONDS PER_SECOND CLIENTS} (that many requests a second, each
 * second opening with every client at once, as autocannon paces a rate), {@code exit}. Each answers
 * with one line, {@code ok=… failed=… per_second=… p50_ms=… p99_ms=… statuses=…}, or {@code
 * error=…}.
 *
 * <p>{@code java -cp … io.idem.bench.LoadAt BASE_URL API_KEY CLIENTS [jobs|chat:MODEL]}
 */
public final class LoadAt {
    private LoadAt() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4 || (args.length == 4 && !args[3].matches("jobs|chat:\\S+"))) {
            System.err.println("usage: LoadAt BASE_URL API_KEY CLIENTS [jobs|chat:MODEL]");
            System.exit(2);
        }
        boolean chat = args.length == 4 && args[3].startsWith("chat:");
        HttpLoad load = chat
                ? new HttpLoad(args[0], args[1], HttpLoad.Target.chat(args[3].substring("chat:".length())))
                : new HttpLoad(args[0], args[1]);
        HttpLoad.Keys keys = chat ? HttpLoad.Keys.NONE : HttpLoad.Keys.UNIQUE;
        int clients = Integer.parseInt(args[2]);
        PrintStream out = System.out;
        var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] command = line.trim().split("\\s+");
            switch (command[0]) {
                case "run" ->
                    out.println(line(load.run(
                            command.length > 2 ? Integer.parseInt(command[2]) : clients,
                            Duration.ofSeconds(Long.parseLong(command[1])),
                            Long.MAX_VALUE,
                            keys)));
                case "send" ->
                    out.println(line(load.run(clients, Duration.ofHours(1), Long.parseLong(command[1]), keys)));
                case "paced" ->
                    out.println(line(load.paced(
                            Integer.parseInt(command[3]),
                            Duration.ofSeconds(Long.parseLong(command[1])),
                            Integer.parseInt(command[2]),
                            keys)));
                case "exit" -> {
                    return;
                }
                default -> out.println("error=unknown command " + command[0]);
            }
            out.flush();
        }
    }

    private static String line(HttpLoad.Result result) {
        return "ok=%d failed=%d per_second=%.0f p50_ms=%.2f p99_ms=%.2f statuses=%s%s"
                .formatted(
                        result.ok(),
                        result.failed(),
                        result.perSecond(),
                        result.latency().getValueAtPercentile(50) / 1e6,
                        result.latency().getValueAtPercentile(99) / 1e6,
                        result.statuses().toString().replace(" ", ""),
                        result.error() == null
                                ? ""
                                : " first_error=" + result.error().replace(' ', '_'));
    }
}
