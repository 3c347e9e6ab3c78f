package io.idem.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The accept load of {@code idem-bench/ab/run} against a node that runs elsewhere: closed-loop
 * {@code POST /v1/jobs} with a fresh {@code Idempotency-Key} each ({@link HttpLoad}), driven line
 * by line from standard input so that one warm client serves a whole procedure. Commands: {@code
 * run SECONDS} (load for that long), {@code send N} (N requests, however long they take), {@code
 * exit}. Each answers with one line, {@code ok=… failed=… per_second=… p50_ms=… p99_ms=…
 * statuses=…}, or {@code error=…}.
 *
 * <p>{@code java -cp … io.idem.bench.LoadAt BASE_URL API_KEY CLIENTS}
 */
public final class LoadAt {
    private LoadAt() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: LoadAt BASE_URL API_KEY CLIENTS");
            System.exit(2);
        }
        HttpLoad load = new HttpLoad(args[0], args[1]);
        int clients = Integer.parseInt(args[2]);
        PrintStream out = System.out;
        var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] command = line.trim().split("\\s+");
            switch (command[0]) {
                case "run" ->
                    out.println(line(load.run(
                            clients,
                            Duration.ofSeconds(Long.parseLong(command[1])),
                            Long.MAX_VALUE,
                            HttpLoad.Keys.UNIQUE)));
                case "send" ->
                    out.println(line(
                            load.run(clients, Duration.ofHours(1), Long.parseLong(command[1]), HttpLoad.Keys.UNIQUE)));
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
